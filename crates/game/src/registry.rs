//! What the rest of arbiter knows about a game without naming it: its names, the tags and
//! numbers that identify it, its ruleset options and what its statistics look like.
//!
//! Each rules crate describes its game (or each of its variants) with one static
//! [`GameInfo`]. A [`Registry`] is the list of them, in the order reports show them; it
//! identifies the game of a record from its tags or from a command-line name. Nothing outside
//! the rules crates and the one place that builds the registry names a game.

use std::fmt;

/// A ruleset option a game accepts (`[Rules "..."]` or `--rules`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RuleOption {
    /// The option's name, lower case with dashes (`lenient-unused`).
    pub name: &'static str,
    /// One line saying what it changes.
    pub help: &'static str,
}

/// How a game's statistics are read: which sections of a report make sense for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Profile {
    /// The seats are two fixed sides (White and Black); results and material are per side.
    pub two_sides: bool,
    /// Every piece can be moved by every seat (material is counted as one total).
    pub shared_pieces: bool,
    /// The game is played with throws of chance; their fairness can be tested.
    pub chance: Option<&'static Chance>,
    /// The board, for heat maps of where captures happen.
    pub board: BoardShape,
}

/// The board of a game, as statistics and diagrams see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardShape {
    /// Files (columns).
    pub files: u8,
    /// Ranks (rows).
    pub ranks: u8,
    /// How its squares are laid out.
    pub style: crate::BoardStyle,
}

/// The throws of a game of chance and their probabilities with fair implements.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Chance {
    /// What one outcome is called, in the singular (`throw`).
    pub name: &'static str,
    /// Every value a throw can take, in increasing order.
    pub values: &'static [u8],
    /// The probability of each value, in the same order (they add up to 1).
    pub probabilities: &'static [f64],
}

impl Eq for Chance {}

/// Everything arbiter needs to know about one game before playing it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameInfo {
    /// The command-line name (`tama`, `international`), lower case, unique.
    pub id: &'static str,
    /// The name shown in reports and messages (`Odnocvetnie Shashki`).
    pub label: &'static str,
    /// The value the writer puts in a `Variant` tag.
    pub variant_tag: &'static str,
    /// Further names accepted in `Variant` tags and for `--game`; compared ignoring case,
    /// spaces, dashes, underscores and a final `!`.
    pub aliases: &'static [&'static str],
    /// The PDN `GameType` numbers (first field) that mean this game.
    pub game_types: &'static [u32],
    /// Ruleset options, besides the default rules.
    pub options: &'static [RuleOption],
    /// Names of the seats, indexed by seat number.
    pub seat_names: &'static [&'static str],
    /// Its squares have a numeric form as well as names (`--squares numeric`).
    pub numeric_squares: bool,
    /// What its statistics look like.
    pub profile: Profile,
    /// The record shapes this game is chosen for when a record names no game and several
    /// games accept its moves (see [`crate::Claim`]); empty for most games.
    pub claims: &'static [crate::Claim],
}

impl GameInfo {
    /// True when `name` (a `Variant` tag or a `--game` value) is one of this game's names.
    pub fn answers_to(&self, name: &str) -> bool {
        normalised(name).next().is_some()
            && std::iter::once(self.id)
                .chain(std::iter::once(self.variant_tag))
                .chain(std::iter::once(self.label))
                .chain(self.aliases.iter().copied())
                .any(|n| normalised(n).eq(normalised(name)))
    }

    /// Reads a comma- or space-separated list of ruleset options. `default`, `standard` and
    /// the empty string mean the default rules.
    pub fn parse_options(&self, text: &str) -> Result<Options, OptionError> {
        let mut options = Options::default();
        for name in text
            .split([',', ' '])
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            let lower = name.to_ascii_lowercase();
            if lower == "default" || lower == "standard" {
                continue;
            }
            match self.options.iter().find(|o| o.name == lower) {
                Some(o) if !options.has(o) => options.0.push(o),
                Some(_) => {}
                None => {
                    return Err(OptionError {
                        game: self.label,
                        unknown: name.to_string(),
                        valid: self.options,
                    })
                }
            }
        }
        Ok(options)
    }
}

/// `name` without a final `draughts` or `checkers` set off by a space, dash or underscore
/// (`Russian draughts` -> `Russian`); `None` when it has no such word or nothing before it.
fn without_family_word(name: &str) -> Option<&str> {
    let name = name.trim().trim_end_matches('!');
    ["draughts", "checkers"].iter().find_map(|word| {
        let cut = name.len().checked_sub(word.len())?;
        let (head, tail) = (name.get(..cut)?, name.get(cut..)?);
        if !tail.eq_ignore_ascii_case(word) {
            return None;
        }
        let head = head.strip_suffix([' ', '-', '_', '\t'])?.trim_end();
        (!head.is_empty()).then_some(head)
    })
}

/// The characters that matter when names are compared: lower case, without spaces, dashes,
/// underscores, dots or a trailing `!` (an iterator: every record is identified, so the
/// comparison allocates nothing).
fn normalised(name: &str) -> impl Iterator<Item = char> + '_ {
    name.trim()
        .trim_end_matches('!')
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_' | '.' | '\t'))
        .flat_map(char::to_lowercase)
}

/// A validated set of ruleset options of one game (empty: the default rules): the game's own
/// [`RuleOption`]s, which its rules crate asks for by the same constants it lists them with
/// on its [`GameInfo`] (no option is looked up by a name written twice).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Options(Vec<&'static RuleOption>);

impl Options {
    /// True when `option` is set.
    pub fn has(&self, option: &RuleOption) -> bool {
        self.0.iter().any(|o| o.name == option.name)
    }

    /// The options set, in the order given.
    pub fn iter(&self) -> impl Iterator<Item = &'static RuleOption> + '_ {
        self.0.iter().copied()
    }

    /// The names of the options set, in the order given.
    pub fn names(&self) -> Vec<&'static str> {
        self.0.iter().map(|o| o.name).collect()
    }

    /// True for the default rules.
    pub fn is_default(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            f.write_str("default")
        } else {
            f.write_str(&self.names().join(","))
        }
    }
}

/// A ruleset option the game does not have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionError {
    /// The game's label.
    pub game: &'static str,
    /// The name that was given.
    pub unknown: String,
    /// The options the game has.
    pub valid: &'static [RuleOption],
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} has no ruleset option `{}`", self.game, self.unknown)?;
        if self.valid.is_empty() {
            write!(f, " (it has none; only `default`)")
        } else {
            let names: Vec<&str> = self.valid.iter().map(|o| o.name).collect();
            write!(f, " (valid: default, {})", names.join(", "))
        }
    }
}

impl std::error::Error for OptionError {}

/// Why a `--rules` text is refused (see [`Registry::check_rules`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// The game has no such option.
    #[error(transparent)]
    Option(#[from] OptionError),
    /// No game of the registry has such an option.
    #[error(
        "`{rules}` is not a ruleset option of any game (options by game: {})",
        by_game(offered)
    )]
    NoGame {
        /// The text given.
        rules: String,
        /// Each game with options (its id), and its options.
        offered: Vec<(&'static str, &'static [RuleOption])>,
    },
}

/// `id: option, option; id: option`: what each game offers.
fn by_game(offered: &[(&'static str, &'static [RuleOption])]) -> String {
    let all: Vec<String> = offered
        .iter()
        .map(|(id, options)| {
            let names: Vec<&str> = options.iter().map(|o| o.name).collect();
            format!("{id}: {}", names.join(", "))
        })
        .collect();
    all.join("; ")
}

/// Why the game of a record could not be identified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unidentified {
    /// Neither a `Variant` nor a `GameType` tag, and no game chosen on the command line.
    NoTag,
    /// The `Variant` tag (and `GameType`, if any) name no game arbiter knows.
    Variant(String),
    /// The `GameType` tag names no game arbiter knows (and there is no `Variant` tag).
    GameType(String),
}

/// The games arbiter knows, in the order reports list them.
#[derive(Debug, Clone, Default)]
pub struct Registry {
    games: Vec<&'static GameInfo>,
}

impl Registry {
    /// A registry of these games. Ids must be unique.
    pub fn new(games: Vec<&'static GameInfo>) -> Self {
        Registry { games }
    }

    /// Every game, in order.
    pub fn games(&self) -> &[&'static GameInfo] {
        &self.games
    }

    /// Checks a `--rules` text: for `game`, its options; without a game, options of some
    /// game of the registry. The error lists what each game offers.
    pub fn check_rules(&self, game: Option<&GameInfo>, rules: &str) -> Result<(), RulesError> {
        if let Some(info) = game {
            return info
                .parse_options(rules)
                .map(drop)
                .map_err(RulesError::from);
        }
        if self.games.iter().any(|g| g.parse_options(rules).is_ok()) {
            return Ok(());
        }
        Err(RulesError::NoGame {
            rules: rules.to_string(),
            offered: self
                .games
                .iter()
                .filter(|g| !g.options.is_empty())
                .map(|g| (g.id, g.options))
                .collect(),
        })
    }

    /// The position of a game in [`Registry::games`].
    pub fn index_of(&self, info: &GameInfo) -> Option<usize> {
        self.games.iter().position(|g| g.id == info.id)
    }

    /// The game a command-line name or `Variant` value names.
    ///
    /// A name no game answers to is tried again without a final family word, as records
    /// and people often write them (`International draughts`, `American checkers`); a game
    /// that answers to the whole name comes first.
    pub fn by_name(&self, name: &str) -> Option<&'static GameInfo> {
        let find = |name: &str| self.games.iter().copied().find(|g| g.answers_to(name));
        find(name).or_else(|| without_family_word(name).and_then(find))
    }

    /// The game a `GameType` value names (its first field), if any.
    pub fn by_game_type(&self, value: &str) -> Option<&'static GameInfo> {
        let number: u32 = value.split(',').next()?.trim().parse().ok()?;
        self.games
            .iter()
            .copied()
            .find(|g| g.game_types.contains(&number))
    }

    /// Identifies a record's game from its `Variant` and `GameType` tags: a `Variant` that
    /// names a game wins, then the `GameType` number.
    pub fn identify(
        &self,
        variant: Option<&str>,
        game_type: Option<&str>,
    ) -> Result<&'static GameInfo, Unidentified> {
        let variant = variant.map(str::trim).filter(|v| !v.is_empty());
        let game_type = game_type.map(str::trim).filter(|v| !v.is_empty());
        if let Some(info) = variant.and_then(|v| self.by_name(v)) {
            return Ok(info);
        }
        if let Some(info) = game_type.and_then(|t| self.by_game_type(t)) {
            return Ok(info);
        }
        match (variant, game_type) {
            (Some(v), _) => Err(Unidentified::Variant(v.to_string())),
            (None, Some(t)) => Err(Unidentified::GameType(t.to_string())),
            (None, None) => Err(Unidentified::NoTag),
        }
    }

    /// The command-line names, comma-separated (for messages).
    pub fn id_list(&self) -> String {
        let ids: Vec<&str> = self.games.iter().map(|g| g.id).collect();
        ids.join(", ")
    }

    /// A sentence saying why a record's game is unknown and how to choose one.
    pub fn explain(&self, why: &Unidentified) -> String {
        let seen = match why {
            Unidentified::NoTag => "the record has no Variant or GameType tag".to_string(),
            Unidentified::Variant(v) => format!("Variant \"{v}\" is not a game arbiter knows"),
            Unidentified::GameType(t) => {
                format!("GameType \"{t}\" is not a game arbiter knows")
            }
        };
        format!(
            "{seen}, so its moves were not checked; choose the game with --game ({})",
            self.id_list()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BoardStyle;

    const SHAPE: BoardShape = BoardShape {
        files: 8,
        ranks: 8,
        style: BoardStyle::DarkOnly,
    };
    const PROFILE: Profile = Profile {
        two_sides: true,
        shared_pieces: false,
        chance: None,
        board: SHAPE,
    };
    static A: GameInfo = GameInfo {
        id: "english",
        label: "English draughts",
        variant_tag: "English",
        aliases: &["American/English", "Checkers"],
        game_types: &[21],
        options: &[RuleOption {
            name: "fast",
            help: "x",
        }],
        seat_names: &["Black", "White"],
        numeric_squares: true,
        profile: PROFILE,
        claims: &[],
    };
    static B: GameInfo = GameInfo {
        id: "frysk",
        label: "Frysk!",
        variant_tag: "Frysk!",
        aliases: &[],
        game_types: &[97],
        options: &[],
        seat_names: &["White", "Black"],
        numeric_squares: true,
        profile: PROFILE,
        claims: &[],
    };

    fn registry() -> Registry {
        Registry::new(vec![&A, &B])
    }

    #[test]
    fn rules_are_checked_against_the_game_or_else_every_game() {
        let r = registry();
        assert_eq!(r.check_rules(Some(&A), "fast"), Ok(()));
        assert_eq!(r.check_rules(None, "FAST"), Ok(()));
        let for_b = r.check_rules(Some(&B), "fast").unwrap_err();
        assert!(matches!(&for_b, RulesError::Option(e) if e.unknown == "fast"));
        assert_eq!(
            for_b.to_string(),
            "Frysk! has no ruleset option `fast` (it has none; only `default`)"
        );
        let none = r.check_rules(None, "slow").unwrap_err();
        assert_eq!(
            none.to_string(),
            "`slow` is not a ruleset option of any game (options by game: english: fast)"
        );
    }

    #[test]
    fn options_are_asked_for_by_the_game_s_own_values() {
        let o = A.parse_options("fast").unwrap();
        assert!(o.has(&A.options[0]));
        assert!(!Options::default().has(&A.options[0]));
        assert_eq!(o.iter().map(|o| o.help).collect::<Vec<_>>(), ["x"]);
        assert_eq!(o.to_string(), "fast");
    }

    #[test]
    fn names_are_matched_loosely() {
        let r = registry();
        assert_eq!(r.by_name("american/english").map(|g| g.id), Some("english"));
        assert_eq!(r.by_name(" ENGLISH ").map(|g| g.id), Some("english"));
        assert_eq!(r.by_name("frysk").map(|g| g.id), Some("frysk"));
        assert_eq!(r.by_name("Frysk!").map(|g| g.id), Some("frysk"));
        assert!(r.by_name("Englsh").is_none());
        assert!(r.by_name("").is_none());
    }

    #[test]
    fn identification_prefers_a_known_variant_then_the_game_type() {
        let r = registry();
        assert_eq!(r.identify(Some("Frysk!"), Some("21")).unwrap().id, "frysk");
        assert_eq!(
            r.identify(Some("Tamma"), Some("21,B,8,8,N1,0")).unwrap().id,
            "english"
        );
        assert_eq!(
            r.identify(Some("Tamma"), None),
            Err(Unidentified::Variant("Tamma".into()))
        );
        assert_eq!(
            r.identify(None, Some("44")),
            Err(Unidentified::GameType("44".into()))
        );
        assert_eq!(r.identify(Some(" "), None), Err(Unidentified::NoTag));
        let msg = r.explain(&Unidentified::Variant("Tamma".into()));
        assert!(
            msg.contains("\"Tamma\"") && msg.contains("english, frysk"),
            "{msg}"
        );
    }

    #[test]
    fn options_are_validated_and_listed() {
        assert!(A.parse_options("").unwrap().is_default());
        assert!(A.parse_options("default").unwrap().is_default());
        let o = A.parse_options("FAST, fast").unwrap();
        assert_eq!(o.names(), ["fast"]);
        assert_eq!(o.to_string(), "fast");
        let e = A.parse_options("fast,slow").unwrap_err();
        assert_eq!(e.unknown, "slow");
        assert!(e.to_string().contains("valid: default, fast"), "{e}");
        assert!(B
            .parse_options("x")
            .unwrap_err()
            .to_string()
            .contains("it has none"));
    }
}
