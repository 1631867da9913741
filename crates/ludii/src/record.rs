//! A record as a trial writer sees it: its tags and main line, without PDN syntax.

/// The tags, main-line move tokens and result of one record, for [`crate::TrialFormat::write`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecordView {
    /// The tag pairs, in order.
    pub tags: Vec<(String, String)>,
    /// The move tokens of the main line, in order (variations and comments left out).
    pub moves: Vec<String>,
    /// The result token at the end of the movetext, if any.
    pub result: Option<String>,
}

impl RecordView {
    /// The view of a PDN record.
    pub fn from_pdn(record: &pdn::GameRecord) -> RecordView {
        RecordView {
            tags: record
                .tags
                .iter()
                .map(|t| (t.name.clone(), t.value.clone()))
                .collect(),
            moves: record
                .movetext
                .iter()
                .filter_map(|n| match n {
                    pdn::Node::Move(m) => Some(m.token.clone()),
                    _ => None,
                })
                .collect(),
            result: record.result.as_ref().map(|r| r.token.clone()),
        }
    }

    /// The value of the first tag `name` (compared ignoring case).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The result: the movetext's result token, else the `Result` tag.
    pub fn result(&self) -> Option<&str> {
        self.result.as_deref().or(self.tag("Result"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_tags_main_line_and_result() {
        let rec =
            &pdn::read_all(b"[Variant \"X\"]\n[Result \"1-0\"]\n\n1. a1-a2 {c} (1. b1-b2) a7-a6 *")
                [0];
        let v = RecordView::from_pdn(rec);
        assert_eq!(v.tag("variant"), Some("X"));
        assert_eq!(v.moves, ["a1-a2", "a7-a6"]);
        assert_eq!(v.result(), Some("*"));
        let rec = &pdn::read_all(b"[Result \"1-0\"]\n\n1. a1-a2")[0];
        assert_eq!(RecordView::from_pdn(rec).result(), Some("1-0"));
    }
}
