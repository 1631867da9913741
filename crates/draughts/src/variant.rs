//! The rules as data: one [`Variant`] value per game, and the list [`VARIANTS`].
//!
//! Everything the move generator, the resolver and the notation need to know about a variant
//! is a field here; no code branches on a variant's name.

use crate::color::Color;

/// Which squares of the board are played on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Squares {
    /// The dark squares, a1 dark (International, English, Russian, ...).
    Dark,
    /// The dark squares of a board turned a quarter: a1 is light, so the long diagonal runs
    /// from h1 to a8 (Italian, Spanish, Portuguese).
    DarkTurned,
    /// Every square (Turkish); numbered from a1 = 1 along the ranks.
    All,
}

/// The lines pieces move and capture along.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Movement {
    /// Diagonals (men forward, kings all four ways).
    Diagonal,
    /// Ranks and files (Turkish: men forward and sideways, kings all four ways).
    Orthogonal,
}

/// How far a king moves and captures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KingRange {
    /// One square; a capture jumps an adjacent piece to the square right behind it.
    Short,
    /// Any distance along a free diagonal, before and after the piece it takes.
    Flying,
    /// Any distance before the piece it takes, but it lands on the square right behind it
    /// (Thai).
    FlyingLandsBehind,
}

/// Which pieces take part in deciding which capture must be played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CaptureRule {
    /// Any capture may be chosen (the chain must still be played to its end).
    Free,
    /// The capture taking the most pieces is compulsory.
    MajorityCount,
    /// The capture taking the greatest value is compulsory, a man counting 100 and a king 199
    /// (just under two men, as lidraughts counts); on equal value a king must do the capturing
    /// (Frisian).
    MajorityValue,
    /// As [`CaptureRule::MajorityValue`], but a king counts one and a half men (the reading of
    /// several rule summaries).
    MajorityValueHalf,
    /// Most pieces; then capturing with a king; then most kings taken; then the chain that
    /// meets a king earliest (Italian).
    Italian,
    /// Most pieces; then most kings taken (Spanish, Portuguese).
    CountThenKings,
    /// If a king can capture, a king must capture; otherwise free (Czech).
    KingFirst,
}

/// What happens when a man reaches the far row in the middle of a capture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PromotionInCapture {
    /// The move ends there and the man is crowned.
    EndsMove,
    /// It is crowned at once and goes on capturing as a king.
    ContinueAsKing,
    /// It goes on capturing as a man if it can, and is crowned only if the move ends on the
    /// far row.
    ContinueAsMan,
}

/// How squares are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SquareStyle {
    /// Numbers, 1 on the far side of White's pieces (`32-28`).
    Numeric,
    /// File letter and rank number (`c3-d4`).
    Algebraic,
}

/// How results are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResultStyle {
    /// `2-0`, `1-1`, `0-2` from White's point of view.
    TwoPoints,
    /// `1-0`, `1/2-1/2`, `0-1` from White's point of view.
    OnePointWhite,
    /// `1-0`, `1/2-1/2`, `0-1` from the first mover's point of view (English: Black).
    OnePointFirstMover,
}

/// How a game is won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WinRule {
    /// The player who cannot move loses.
    NoMoveLoses,
    /// The player who cannot move wins (Antidraughts).
    NoMoveWins,
    /// The first player to crown a king wins; a player who cannot move loses (Breakthrough).
    FirstKingWins,
}

/// A ruleset option: a disputed reading that can be chosen instead of the default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RuleOption {
    /// The name given on the command line.
    pub name: &'static str,
    /// One line of help.
    pub help: &'static str,
    /// What the option changes.
    pub effect: OptionEffect,
}

/// What a [`RuleOption`] changes in the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OptionEffect {
    /// Mid-capture promotion follows this reading instead.
    Promotion(PromotionInCapture),
    /// The capture rule is this one instead.
    Capture(CaptureRule),
    /// Captured pieces leave at once (`true`) or when the move ends (`false`).
    Removal(bool),
    /// Records may write a capture chain one jump per token (not a rule of the game: the
    /// resolver's reading, see `Draughts::split_chains`).
    SplitChains,
}

/// The rules of one variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Variant {
    /// The identifier used on the command line, e.g. `international`.
    pub id: &'static str,
    /// The name shown in reports and written in the `Variant` tag.
    pub label: &'static str,
    /// `Variant`/`GameType` tag values that name this variant (compared case-insensitively).
    pub aliases: &'static [&'static str],
    /// The PDN `GameType` number.
    pub game_type: u16,
    /// Files.
    pub width: u8,
    /// Ranks.
    pub height: u8,
    /// Which squares are used.
    pub squares: Squares,
    /// The colour that moves first.
    pub first: Color,
    /// The start position, in the variant's FEN dialect (numeric squares).
    pub start: &'static str,
    /// The lines pieces move along.
    pub movement: Movement,
    /// Men capture backwards too.
    pub men_capture_backwards: bool,
    /// Pieces also capture along ranks and files (Frisian).
    pub orthogonal_captures: bool,
    /// A man may capture a king.
    pub man_takes_king: bool,
    /// King range.
    pub king: KingRange,
    /// Captured pieces leave the board as they are jumped (Turkish), instead of when the move
    /// ends.
    pub immediate_removal: bool,
    /// A capturing piece may not reverse direction between two jumps (Turkish).
    pub no_turn_back: bool,
    /// Which capture must be chosen.
    pub capture: CaptureRule,
    /// Promotion during a capture.
    pub promotion: PromotionInCapture,
    /// A king may make at most this many quiet moves in a row while its side still has men
    /// (Frisian: 3); 0 = no limit.
    pub king_quiet_limit: u8,
    /// How squares are written.
    pub notation: SquareStyle,
    /// How results are written.
    pub results: ResultStyle,
    /// Algebraic names are given from Black's side of the board (a1 in Black's left corner),
    /// as playstrategy writes American checkers; numbers are unaffected.
    pub algebraic_from_black: bool,
    /// How the game is won.
    pub win: WinRule,
    /// perft counts chains with the same start, end and captured pieces once (false only
    /// where the published figures count them separately: English).
    pub perft_merges_duplicates: bool,
    /// Ruleset options.
    pub options: &'static [RuleOption],
    /// The record shapes this variant is chosen for when a record names no game and several
    /// games accept its moves (see `game::Claim` and docs/notation.md).
    pub claims: &'static [game::Claim],
}

const INTERNATIONAL_START: &str = "W:W31-50:B1-20";
const EIGHT_START: &str = "W:W21-32:B1-12";

/// The rules most variants share, on a 10x10 board: International.
pub static INTERNATIONAL: Variant = Variant {
    claims: &[game::Claim {
        squares: game::SquareStyle::Numeric,
        first: None,
        reason: "the FMJD standard: every 10x10 archive in numbers is International unless it says otherwise",
    }],
    id: "international",
    label: "International",
    aliases: &[
        "International",
        "Standard",
        "FMJD",
        "Dames",
        "Draughts",
        "20",
    ],
    game_type: 20,
    width: 10,
    height: 10,
    squares: Squares::Dark,
    first: Color::White,
    start: INTERNATIONAL_START,
    movement: Movement::Diagonal,
    men_capture_backwards: true,
    orthogonal_captures: false,
    man_takes_king: true,
    king: KingRange::Flying,
    immediate_removal: false,
    no_turn_back: false,
    capture: CaptureRule::MajorityCount,
    promotion: PromotionInCapture::ContinueAsMan,
    king_quiet_limit: 0,
    notation: SquareStyle::Numeric,
    results: ResultStyle::TwoPoints,
    algebraic_from_black: false,
    win: WinRule::NoMoveLoses,
    perft_merges_duplicates: true,
    options: &[],
};

/// English draughts / American checkers.
pub static ENGLISH: Variant = Variant {
    claims: &[game::Claim {
        squares: game::SquareStyle::Numeric,
        first: Some(game::Seat(1)),
        reason: "PDN was first written for English checkers, the 8x8 game in numbers where Black moves first",
    }],
    id: "english",
    label: "English",
    aliases: &["American/English", "English", "Checkers", "American", "21"],
    game_type: 21,
    width: 8,
    height: 8,
    first: Color::Black,
    start: "B:W21-32:B1-12",
    men_capture_backwards: false,
    king: KingRange::Short,
    capture: CaptureRule::Free,
    promotion: PromotionInCapture::EndsMove,
    results: ResultStyle::OnePointFirstMover,
    algebraic_from_black: true,
    perft_merges_duplicates: false,
    ..INTERNATIONAL
};

/// Italian draughts.
pub static ITALIAN: Variant = Variant {
    claims: &[],
    id: "italian",
    label: "Italian",
    aliases: &["Italian", "Dama Italiana", "22"],
    game_type: 22,
    width: 8,
    height: 8,
    squares: Squares::DarkTurned,
    start: EIGHT_START,
    men_capture_backwards: false,
    man_takes_king: false,
    king: KingRange::Short,
    capture: CaptureRule::Italian,
    promotion: PromotionInCapture::EndsMove,
    results: ResultStyle::OnePointWhite,
    ..INTERNATIONAL
};

/// American pool checkers.
pub static POOL: Variant = Variant {
    claims: &[],
    id: "pool",
    label: "Pool",
    aliases: &["Pool", "American Pool", "Pool Checkers", "23"],
    game_type: 23,
    width: 8,
    height: 8,
    first: Color::Black,
    start: "B:W21-32:B1-12",
    capture: CaptureRule::Free,
    promotion: PromotionInCapture::ContinueAsMan,
    results: ResultStyle::OnePointWhite,
    options: &[RuleOption {
        name: "promotion-ends",
        help: "a man reaching the far row during a capture is crowned and the move ends there",
        effect: OptionEffect::Promotion(PromotionInCapture::EndsMove),
    }],
    ..INTERNATIONAL
};

/// Spanish draughts.
pub static SPANISH: Variant = Variant {
    claims: &[],
    id: "spanish",
    label: "Spanish",
    aliases: &["Spanish", "Damas", "24"],
    game_type: 24,
    width: 8,
    height: 8,
    squares: Squares::DarkTurned,
    start: EIGHT_START,
    men_capture_backwards: false,
    capture: CaptureRule::CountThenKings,
    promotion: PromotionInCapture::EndsMove,
    results: ResultStyle::OnePointWhite,
    ..INTERNATIONAL
};

/// Russian draughts.
pub static RUSSIAN: Variant = Variant {
    claims: &[game::Claim {
        squares: game::SquareStyle::Algebraic,
        first: Some(game::Seat(0)),
        reason: "the 8x8 game most archives write in algebraic names, White moving first (Brazilian and Czech are written alike, but far fewer records are kept)",
    }],
    id: "russian",
    label: "Russian",
    aliases: &["Russian", "Shashki", "25"],
    game_type: 25,
    width: 8,
    height: 8,
    start: EIGHT_START,
    capture: CaptureRule::Free,
    promotion: PromotionInCapture::ContinueAsKing,
    notation: SquareStyle::Algebraic,
    ..INTERNATIONAL
};

/// Brazilian draughts: International rules on 8x8.
pub static BRAZILIAN: Variant = Variant {
    claims: &[],
    id: "brazilian",
    label: "Brazilian",
    aliases: &["Brazilian", "26"],
    game_type: 26,
    width: 8,
    height: 8,
    start: EIGHT_START,
    notation: SquareStyle::Algebraic,
    ..INTERNATIONAL
};

/// Canadian draughts: International rules on 12x12.
pub static CANADIAN: Variant = Variant {
    claims: &[],
    id: "canadian",
    label: "Canadian",
    aliases: &["Canadian", "27"],
    game_type: 27,
    width: 12,
    height: 12,
    start: "W:W43-72:B1-30",
    ..INTERNATIONAL
};

/// Portuguese draughts: Spanish rules.
pub static PORTUGUESE: Variant = Variant {
    claims: &[],
    id: "portuguese",
    label: "Portuguese",
    aliases: &["Portuguese", "28"],
    game_type: 28,
    ..SPANISH
};

/// Czech draughts.
pub static CZECH: Variant = Variant {
    claims: &[],
    id: "czech",
    label: "Czech",
    aliases: &["Czech", "29"],
    game_type: 29,
    width: 8,
    height: 8,
    start: EIGHT_START,
    men_capture_backwards: false,
    capture: CaptureRule::KingFirst,
    promotion: PromotionInCapture::EndsMove,
    notation: SquareStyle::Algebraic,
    results: ResultStyle::OnePointWhite,
    ..INTERNATIONAL
};

/// Turkish draughts (Dama).
pub static TURKISH: Variant = Variant {
    claims: &[],
    id: "turkish",
    label: "Turkish",
    aliases: &["Turkish", "Dama", "30"],
    game_type: 30,
    width: 8,
    height: 8,
    squares: Squares::All,
    start: "W:W9-24:B41-56",
    movement: Movement::Orthogonal,
    men_capture_backwards: false,
    immediate_removal: true,
    no_turn_back: true,
    notation: SquareStyle::Algebraic,
    results: ResultStyle::OnePointWhite,
    options: &[
        RuleOption {
            name: "promotion-ends",
            help: "a man reaching the far row during a capture is crowned and the move ends there",
            effect: OptionEffect::Promotion(PromotionInCapture::EndsMove),
        },
        RuleOption {
            name: "promotion-king",
            help: "a man reaching the far row during a capture is crowned at once and goes on capturing as a king",
            effect: OptionEffect::Promotion(PromotionInCapture::ContinueAsKing),
        },
    ],
    ..INTERNATIONAL
};

/// Thai draughts (Mak-hos).
pub static THAI: Variant = Variant {
    claims: &[],
    id: "thai",
    label: "Thai",
    aliases: &["Thai", "Makhos", "31"],
    game_type: 31,
    width: 8,
    height: 8,
    start: "W:W25-32:B1-8",
    men_capture_backwards: false,
    king: KingRange::FlyingLandsBehind,
    immediate_removal: true,
    capture: CaptureRule::Free,
    promotion: PromotionInCapture::EndsMove,
    notation: SquareStyle::Algebraic,
    results: ResultStyle::OnePointWhite,
    options: &[RuleOption {
        name: "removal-at-end",
        help: "captured pieces stay on the board (and block) until the capture is complete",
        effect: OptionEffect::Removal(false),
    }],
    ..INTERNATIONAL
};

/// Frisian draughts.
pub static FRISIAN: Variant = Variant {
    claims: &[],
    id: "frisian",
    label: "Frisian",
    aliases: &["Frisian", "40"],
    game_type: 40,
    orthogonal_captures: true,
    capture: CaptureRule::MajorityValue,
    king_quiet_limit: 3,
    options: &[RuleOption {
        name: "king-one-and-a-half",
        help:
            "a captured king counts one and a half men (instead of 1.99) when captures are compared",
        effect: OptionEffect::Capture(CaptureRule::MajorityValueHalf),
    }],
    ..INTERNATIONAL
};

/// Frysk!: Frisian with five men each.
pub static FRYSK: Variant = Variant {
    claims: &[],
    id: "frysk",
    label: "Frysk!",
    aliases: &["Frysk!", "Frysk", "97"],
    game_type: 97,
    start: "W:W46-50:B1-5",
    ..FRISIAN
};

/// Antidraughts: International, but the player who cannot move wins.
pub static ANTIDRAUGHTS: Variant = Variant {
    claims: &[],
    id: "antidraughts",
    label: "Antidraughts",
    aliases: &["Antidraughts", "98"],
    game_type: 98,
    win: WinRule::NoMoveWins,
    ..INTERNATIONAL
};

/// Breakthrough: International, but the first to crown a king wins.
pub static BREAKTHROUGH: Variant = Variant {
    claims: &[],
    id: "breakthrough",
    label: "Breakthrough",
    aliases: &["Breakthrough", "96"],
    game_type: 96,
    win: WinRule::FirstKingWins,
    ..INTERNATIONAL
};

/// Every variant this crate plays, International first.
pub static VARIANTS: &[&Variant] = &[
    &INTERNATIONAL,
    &ENGLISH,
    &ITALIAN,
    &POOL,
    &SPANISH,
    &RUSSIAN,
    &BRAZILIAN,
    &CANADIAN,
    &PORTUGUESE,
    &CZECH,
    &TURKISH,
    &THAI,
    &FRISIAN,
    &FRYSK,
    &ANTIDRAUGHTS,
    &BREAKTHROUGH,
];

impl Variant {
    /// The variant with command-line identifier `id` (case-insensitive).
    pub fn by_id(id: &str) -> Option<&'static Variant> {
        VARIANTS
            .iter()
            .copied()
            .find(|v| v.id.eq_ignore_ascii_case(id.trim()))
    }

    /// The variant a `Variant` tag names (an alias, the label or the id; case-insensitive).
    pub fn by_tag(name: &str) -> Option<&'static Variant> {
        let name = name.trim();
        VARIANTS.iter().copied().find(|v| {
            v.id.eq_ignore_ascii_case(name)
                || v.label.eq_ignore_ascii_case(name)
                || v.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
        })
    }

    /// The variant a `GameType` tag names: its first field is the number
    /// (`"20,W,10,10,N2,0"` reads as 20).
    pub fn by_game_type(value: &str) -> Option<&'static Variant> {
        let first = value.split(',').next()?.trim();
        let n: u16 = first.parse().ok()?;
        VARIANTS.iter().copied().find(|v| v.game_type == n)
    }

    /// The variant a record names: its `Variant` tag if that is known, else its `GameType` tag.
    pub fn from_tags(variant: Option<&str>, game_type: Option<&str>) -> Option<&'static Variant> {
        variant
            .and_then(Variant::by_tag)
            .or_else(|| game_type.and_then(Variant::by_game_type))
    }

    /// The option named `name`, if this variant has one.
    pub fn option(&self, name: &str) -> Option<&'static RuleOption> {
        self.options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name.trim()))
    }

    /// Number of playable squares.
    pub fn square_count(&self) -> usize {
        usize::from(self.width) * usize::from(self.height) / 2
    }
}

/// The rules actually applied: a variant with its chosen options folded in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The lines pieces move along.
    pub movement: Movement,
    /// Captured pieces leave at once.
    pub immediate_removal: bool,
    /// No reversal between jumps.
    pub no_turn_back: bool,
    /// Men capture backwards.
    pub men_capture_backwards: bool,
    /// Orthogonal captures.
    pub orthogonal_captures: bool,
    /// A man may capture a king.
    pub man_takes_king: bool,
    /// King range.
    pub king: KingRange,
    /// Capture rule.
    pub capture: CaptureRule,
    /// Promotion during a capture.
    pub promotion: PromotionInCapture,
    /// Frisian king quiet-move limit.
    pub king_quiet_limit: u8,
    /// perft merging.
    pub perft_merges_duplicates: bool,
}

impl Rules {
    /// The default rules of `v`.
    pub const fn of(v: &Variant) -> Rules {
        Rules {
            movement: v.movement,
            immediate_removal: v.immediate_removal,
            no_turn_back: v.no_turn_back,
            men_capture_backwards: v.men_capture_backwards,
            orthogonal_captures: v.orthogonal_captures,
            man_takes_king: v.man_takes_king,
            king: v.king,
            capture: v.capture,
            promotion: v.promotion,
            king_quiet_limit: v.king_quiet_limit,
            perft_merges_duplicates: v.perft_merges_duplicates,
        }
    }

    /// Applies one option.
    pub fn apply(&mut self, effect: OptionEffect) {
        match effect {
            OptionEffect::Promotion(p) => self.promotion = p,
            OptionEffect::Capture(c) => self.capture = c,
            OptionEffect::Removal(r) => self.immediate_removal = r,
            OptionEffect::SplitChains => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_name_variants() {
        assert_eq!(
            Variant::by_tag("American/English").map(|v| v.id),
            Some("english")
        );
        assert_eq!(Variant::by_tag("russian").map(|v| v.id), Some("russian"));
        assert_eq!(Variant::by_tag("Frysk!").map(|v| v.id), Some("frysk"));
        assert_eq!(
            Variant::by_tag("Standard").map(|v| v.id),
            Some("international")
        );
        assert_eq!(
            Variant::by_game_type("20,W,10,10,N2,0").map(|v| v.id),
            Some("international")
        );
        assert_eq!(
            Variant::by_game_type("96").map(|v| v.id),
            Some("breakthrough")
        );
        assert_eq!(Variant::by_game_type("41"), None);
        assert_eq!(
            Variant::from_tags(Some("Nonsense"), Some("26")).map(|v| v.id),
            Some("brazilian")
        );
        assert_eq!(Variant::by_id("TURKISH").map(|v| v.game_type), Some(30));
    }

    #[test]
    fn every_variant_is_listed_once_with_a_valid_start() {
        let mut ids: Vec<&str> = VARIANTS.iter().map(|v| v.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), 16);
        for v in VARIANTS {
            let d = crate::Draughts::new(v);
            assert!(!d.legal_moves(&d.start()).is_empty(), "{}", v.id);
            for o in v.options {
                assert!(crate::Draughts::with_options(v, o.name).is_ok());
                assert!(!o.help.is_empty());
            }
        }
        let e = crate::Draughts::with_options(&POOL, "split-chains,nonsense").unwrap_err();
        assert_eq!(e.unknown, "nonsense");
        assert!(e.to_string().contains("`nonsense`"), "{e}");
        for v in VARIANTS {
            // Every option is applied: none is dropped for the default rules.
            for o in v.options.iter().chain([&crate::SPLIT_CHAINS]) {
                let d = crate::Draughts::with_options(v, o.name).unwrap();
                let mut want = Rules::of(v);
                match o.effect {
                    OptionEffect::SplitChains => assert!(d.split_chains, "{}", v.id),
                    effect => want.apply(effect),
                }
                assert_eq!(d.rules, want, "{} {}", v.id, o.name);
            }
        }
    }
}
