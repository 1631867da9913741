//! The JSON forms of the record's small types (spans as `[start, end]`, comment kinds and
//! syntax problems by their stable names), used by the record's serde derives. A leaf: it
//! names only the types of `visitor`.

pub(crate) mod span_serde {
    use crate::Span;
    use serde::{Deserialize, Serialize};

    pub fn serialize<S: serde::Serializer>(span: &Span, s: S) -> Result<S::Ok, S::Error> {
        [span.start, span.end].serialize(s)
    }

    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Span, D::Error> {
        let [start, end] = <[u64; 2]>::deserialize(d)?;
        Ok(Span::new(start, end))
    }
}

pub(crate) mod kind_serde {
    use crate::CommentKind;
    use serde::{Deserialize, Serialize};

    pub fn brace() -> CommentKind {
        CommentKind::Brace
    }

    pub fn serialize<S: serde::Serializer>(k: &CommentKind, s: S) -> Result<S::Ok, S::Error> {
        match k {
            CommentKind::Brace => "brace",
            CommentKind::Line => "line",
        }
        .serialize(s)
    }

    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<CommentKind, D::Error> {
        match String::deserialize(d)?.as_str() {
            "brace" => Ok(CommentKind::Brace),
            "line" => Ok(CommentKind::Line),
            other => Err(serde::de::Error::custom(format!(
                "unknown comment kind {other:?}"
            ))),
        }
    }
}

pub(crate) mod problems_serde {
    use serde::{Deserialize, Serialize};

    use super::span_serde;
    use crate::{Severity, Span, SyntaxKind, SyntaxProblem};

    #[derive(Serialize, Deserialize)]
    struct Problem {
        #[serde(with = "span_serde", default)]
        span: Span,
        severity: String,
        kind: String,
        #[serde(default)]
        message: String,
    }

    pub fn serialize<S: serde::Serializer>(
        problems: &[SyntaxProblem],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let v: Vec<Problem> = problems
            .iter()
            .map(|p| Problem {
                span: p.span,
                severity: p.severity.as_str().into(),
                kind: p.kind.as_str().into(),
                message: p.message.clone(),
            })
            .collect();
        v.serialize(s)
    }

    pub fn deserialize<'de, D: serde::Deserializer<'de>>(
        d: D,
    ) -> Result<Vec<SyntaxProblem>, D::Error> {
        use serde::de::Error;
        Vec::<Problem>::deserialize(d)?
            .into_iter()
            .map(|p| {
                let severity = Severity::from_name(&p.severity).ok_or_else(|| {
                    D::Error::custom(format!("unknown severity {:?}", p.severity))
                })?;
                let kind = SyntaxKind::from_name(&p.kind).ok_or_else(|| {
                    D::Error::custom(format!("unknown problem kind {:?}", p.kind))
                })?;
                Ok(SyntaxProblem {
                    span: p.span,
                    severity,
                    kind,
                    message: p.message,
                })
            })
            .collect()
    }
}
