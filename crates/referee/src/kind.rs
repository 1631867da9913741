//! Which game a record is, and which ruleset options apply.

use std::fmt;

/// The games arbiter knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameKind {
    /// Armenian draughts.
    Tama,
    /// Four-seat monochrome draughts.
    Odnocvetnie,
    /// The race game with cowrie throws.
    Thaayam,
}

impl GameKind {
    /// Every game, in a stable order.
    pub const ALL: [GameKind; 3] = [GameKind::Tama, GameKind::Odnocvetnie, GameKind::Thaayam];

    /// Recognises a `Variant` tag value (case-insensitive).
    pub fn from_variant(value: impl AsRef<str>) -> Option<GameKind> {
        let v = value.as_ref().trim().to_ascii_lowercase();
        match v.as_str() {
            "tama" | "armenian" | "armenian draughts" => Some(GameKind::Tama),
            "odnocvetnie" | "odnocvetnie shashki" | "monochrome" => Some(GameKind::Odnocvetnie),
            "thaayam" => Some(GameKind::Thaayam),
            _ => None,
        }
    }

    /// The short name used on the command line (`tama`, `odnocvetnie`, `thaayam`).
    pub fn cli_name(self) -> &'static str {
        match self {
            GameKind::Tama => "tama",
            GameKind::Odnocvetnie => "odnocvetnie",
            GameKind::Thaayam => "thaayam",
        }
    }

    /// The value the writer puts in the `Variant` tag.
    pub fn variant_tag(self) -> &'static str {
        match self {
            GameKind::Tama => "Tama",
            GameKind::Odnocvetnie => "Odnocvetnie",
            GameKind::Thaayam => "Thaayam",
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.cli_name())
    }
}

/// Ruleset options, from `--rules` or a `Rules` tag (comma-separated names).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RulesOptions {
    /// Tama and Thaayam: Ludii's reading of the rules.
    pub ludii: bool,
    /// Odnocvetnie Shashki: the lock also holds a piece crowned in the last move.
    pub lock_any_piece: bool,
    /// Thaayam: only check that no lost throw could still be used.
    pub lenient_unused: bool,
}

impl RulesOptions {
    /// Parses `"ludii"`, `"lock-any-piece, lenient-unused"`, `"default"` or `""`.
    pub fn parse(text: &str) -> Result<RulesOptions, String> {
        let mut options = RulesOptions::default();
        for name in text
            .split([',', ' '])
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            match name.to_ascii_lowercase().as_str() {
                "ludii" => options.ludii = true,
                "lock-any-piece" => options.lock_any_piece = true,
                "lenient-unused" => options.lenient_unused = true,
                "default" | "standard" => {}
                other => {
                    return Err(format!(
                        "unknown ruleset option `{other}` (known: ludii, lock-any-piece, lenient-unused); the default rules are used"
                    ))
                }
            }
        }
        Ok(options)
    }
}
