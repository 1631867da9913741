//! The JSON form of [`GameRecord`].
//!
//! The shape follows the Rust types (serde's default, externally tagged enums in snake_case):
//!
//! ```json
//! {
//!   "span": [0, 61],
//!   "tags": [{"name": "White", "value": "Kees", "span": [0, 16]}],
//!   "movetext": [
//!     {"move_number": {"number": 1, "continuation": false, "span": [18, 20]}},
//!     {"move": {"token": "32-28", "annotations": [{"strength": {"mark": "!?", "span": [26, 28]}}],
//!               "span": [21, 26]}},
//!     {"comment": {"text": " good ", "kind": "brace", "span": [29, 37]}},
//!     {"variation": {"nodes": [{"move": {"token": "33-28", "span": [39, 44]}}],
//!                    "open": [38, 39], "close": [44, 45]}},
//!     {"annotation": {"nag": {"nag": 3, "span": [46, 48]}}},
//!     {"setup": {"fen": "W:W31:B1", "span": [49, 66]}}
//!   ],
//!   "result": {"token": "1-0", "span": [67, 70]},
//!   "problems": [{"span": [5, 6], "severity": "warning", "kind": "stray-text", "message": "..."}]
//! }
//! ```
//!
//! Spans are `[start, end]` byte offsets and may be left out (they default to `[0, 0]`);
//! `header_comments`, `annotations`, `result` and `problems` are left out when empty.
//! Comment kinds are `"brace"` or `"line"`; severities `"note"`, `"warning"` or `"error"`; problem
//! kinds are the stable names of [`crate::SyntaxKind`]. Every record the reader produces
//! goes through JSON and back unchanged.

use crate::record::{GameRecord, InvalidRecord};

/// Why a JSON text could not be turned into a record.
#[derive(Debug, thiserror::Error)]
pub enum JsonError {
    /// The text is not JSON of the record's shape.
    #[error("not a game record: {0}")]
    Syntax(#[from] serde_json::Error),
    /// The record cannot be written as PDN.
    #[error("the record cannot be written as PDN: {0}")]
    Invalid(#[from] InvalidRecord),
}

impl GameRecord {
    /// The record as compact JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a record from JSON and checks it with [`GameRecord::validate`].
    pub fn from_json(text: &str) -> Result<GameRecord, JsonError> {
        let rec: GameRecord = serde_json::from_str(text)?;
        rec.validate()?;
        Ok(rec)
    }
}

/// The top-level keys of a record's JSON form (`plies` is what `arbiter convert --positions`
/// adds).
const RECORD_KEYS: [&str; 7] = [
    "span",
    "header_comments",
    "tags",
    "movetext",
    "result",
    "problems",
    "plies",
];

/// True when `line` (surrounding blanks aside) is a JSON object with at least one key, every
/// key a field of a record's JSON form: how a file of records in JSON lines starts. A PDN
/// text could start so only with a brace comment holding such an object, which the writer
/// never writes as a first line (see [`crate::Writer`]); so this tells the two forms apart
/// by content.
///
/// ```
/// assert!(pdn::is_json_record(r#"{"tags":[],"movetext":[]}"#));
/// assert!(!pdn::is_json_record("{[Empty]}"));
/// assert!(!pdn::is_json_record("{3}"));
/// assert!(!pdn::is_json_record("{}"));
/// assert!(!pdn::is_json_record(r#"{"comment": "a remark"}"#));
/// ```
pub fn is_json_record(line: &str) -> bool {
    let line = line.trim();
    if !line.starts_with('{') {
        return false;
    }
    match serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(line) {
        Ok(map) => !map.is_empty() && map.keys().all(|k| RECORD_KEYS.contains(&k.as_str())),
        Err(_) => false,
    }
}
