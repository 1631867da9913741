//! The variants in arbiter's game registry: a [`game::GameInfo`] per variant, made from its
//! [`Variant`] data, and move generation through [`game::Explore`].

use std::sync::OnceLock;

use game::{BoardShape, BoardStyle, Explore, GameInfo, OptionError, Options, Problem, Profile};

use crate::{
    Draughts, Move, OptionEffect, Position, RuleOption, Squares, Variant, SPLIT_CHAINS, VARIANTS,
};

/// The registry description of `variant` (made once per variant, then shared).
pub fn game_info(variant: &'static Variant) -> &'static GameInfo {
    static INFOS: OnceLock<Vec<(&'static str, &'static GameInfo)>> = OnceLock::new();
    let infos = INFOS.get_or_init(|| {
        VARIANTS
            .iter()
            .map(|v| (v.id, &*Box::leak(Box::new(describe(v)))))
            .collect()
    });
    infos
        .iter()
        .find(|(id, _)| *id == variant.id)
        .map(|(_, info)| *info)
        .expect("every variant is in VARIANTS")
}

/// The [`GameInfo`] of a variant. The lists it needs are leaked once per variant (they live
/// as long as the program, like the variant itself).
fn describe(v: &'static Variant) -> GameInfo {
    let options: Vec<game::RuleOption> = every_option(v).map(registry_option).collect();
    GameInfo {
        id: v.id,
        label: v.label,
        variant_tag: v.aliases.first().copied().unwrap_or(v.label),
        aliases: v.aliases,
        game_types: Box::leak(vec![u32::from(v.game_type)].into_boxed_slice()),
        options: Box::leak(options.into_boxed_slice()),
        seat_names: &["White", "Black"],
        numeric_squares: true,
        profile: Profile {
            two_sides: true,
            shared_pieces: false,
            chance: None,
            counters: &[],
            board: BoardShape {
                files: v.width,
                ranks: v.height,
                style: match v.squares {
                    Squares::All => BoardStyle::Checkered,
                    Squares::Dark => BoardStyle::DarkOnly,
                    Squares::DarkTurned => BoardStyle::DarkOnlyTurned,
                },
            },
        },
        codes: &[],
        claims: v.claims,
    }
}

/// Every option of `variant`: its own, then [`SPLIT_CHAINS`].
fn every_option(v: &'static Variant) -> impl Iterator<Item = &'static RuleOption> {
    v.options.iter().chain(std::iter::once(&SPLIT_CHAINS))
}

/// An option as the registry lists it.
fn registry_option(o: &RuleOption) -> game::RuleOption {
    game::RuleOption {
        name: o.name,
        help: o.help,
    }
}

impl Draughts {
    /// The rules of `variant` under an option set validated against its [`game_info`]:
    /// every option of the variant (and [`SPLIT_CHAINS`]) that the set holds is applied.
    pub fn from_options(variant: &'static Variant, options: &Options) -> Draughts {
        let mut d = Draughts::new(variant);
        for o in every_option(variant).filter(|o| options.has(&registry_option(o))) {
            match o.effect {
                OptionEffect::SplitChains => d.split_chains = true,
                effect => d.rules.apply(effect),
            }
        }
        d
    }

    /// The rules of `variant` with a comma- or space-separated option list (empty or
    /// `default`: the default rules), checked against [`game_info`]: an unknown option is
    /// the error, naming it and the options the variant has.
    pub fn with_options(variant: &'static Variant, options: &str) -> Result<Draughts, OptionError> {
        let parsed = game_info(variant).parse_options(options)?;
        Ok(Draughts::from_options(variant, &parsed))
    }
}

impl Explore for Draughts {
    fn legal_moves(&self, pos: &Position, _chance: &[u8]) -> Result<Vec<Move>, Problem> {
        Ok(Draughts::legal_moves(self, pos))
    }

    /// Squares in the variant's numbering, the start first.
    fn describe(&self, pos: &Position, mv: &Move) -> game::MoveInfo {
        let info = self.move_info(pos, mv);
        let text = |n: u32| {
            let mut s = String::with_capacity(3);
            crate::position::push_decimal(&mut s, n);
            s
        };
        let path: Vec<String> = std::iter::once(info.from)
            .chain(info.path.iter().copied())
            .map(text)
            .collect();
        game::MoveInfo {
            notation: game::Game::write_move(self, pos, mv, game::Game::default_notation(self)),
            from: Some(text(info.from)),
            to: Some(text(info.to)),
            path,
            captured: info.captured.iter().copied().map(text).collect(),
        }
    }

    /// What [`Explore::describe`] gives, written into `out` without allocating.
    fn describe_into(&self, pos: &Position, mv: &Move, out: &mut game::TextList) {
        let notation = game::Game::default_notation(self);
        self.push_move(out.open(), pos, mv, notation);
        out.close();
        let g = self.geometry;
        for b in [mv.from(), mv.to()]
            .into_iter()
            .chain(mv.taken().iter().copied())
        {
            crate::position::push_decimal(out.open(), g.number(b));
            out.close();
        }
    }

    fn perft(&self, pos: &Position, depth: u32) -> u64 {
        Draughts::perft(self, pos, depth)
    }

    fn perft_has_options(&self) -> bool {
        true
    }

    fn perft_moves(&self, pos: &Position, options: &game::PerftOptions) -> Vec<Move> {
        let rules = self.perft_rules(options.keep_duplicates);
        let mut out = Vec::new();
        crate::movegen::perft_moves(self.geometry, &rules, pos, &mut out);
        out
    }

    fn perft_with(&self, pos: &Position, depth: u32, options: &game::PerftOptions) -> u64 {
        let rules = self.perft_rules(options.keep_duplicates);
        crate::movegen::perft_with(self.geometry, &rules, pos, depth, options.bulk)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_is_described_with_its_game_type_and_options() {
        for v in VARIANTS {
            let info = game_info(v);
            assert_eq!(info.id, v.id);
            assert_eq!(info.game_types, [u32::from(v.game_type)]);
            assert!(info.answers_to(info.variant_tag));
            assert!(info.parse_options("split-chains").is_ok());
            for o in v.options {
                let parsed = info.parse_options(o.name).unwrap();
                let d = Draughts::from_options(v, &parsed);
                assert_eq!(d.variant.id, v.id);
            }
            assert!(std::ptr::eq(info, game_info(v)));
        }
    }

    #[test]
    fn moves_are_described_in_numbers() {
        let d = Draughts::new(&crate::INTERNATIONAL);
        let start = game::Game::start_position(&d, &|_| None).unwrap();
        let moves = Explore::legal_moves(&d, &start, &[]).unwrap();
        assert_eq!(moves.len(), 9);
        let m = Explore::describe(&d, &start, &moves[0]);
        assert_eq!(m.path.len(), 2);
        assert!(m.captured.is_empty());
        assert!(m.from.unwrap().parse::<u32>().unwrap() > 30);
        assert_eq!(Explore::perft(&d, &start, 3), 658);
    }
}
