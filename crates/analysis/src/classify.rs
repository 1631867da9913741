//! From scores to judgements: winning chances, the loss of a move, its class, its accuracy.

use serde::Serialize;

/// What a move is judged to be. Classes about shots and won positions say more than a
/// grade of loss and are given first (see [`classify`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Class {
    /// Winning chances fell by at least [`INACCURACY`].
    Inaccuracy,
    /// By at least [`MISTAKE`].
    Mistake,
    /// By at least [`BLUNDER`].
    Blunder,
    /// A won position (winning chances at least [`WON`], or a proven win) let go: after the
    /// move the chances are below [`LET_GO`].
    MissedWin,
    /// A shot (a forced combination winning material) was on the board and the move played
    /// was not its first move.
    MissedShot,
    /// The move gave the opponent a shot.
    AllowedShot,
}

impl Class {
    /// Every class, mildest first.
    pub const ALL: [Class; 6] = [
        Class::Inaccuracy,
        Class::Mistake,
        Class::Blunder,
        Class::MissedWin,
        Class::MissedShot,
        Class::AllowedShot,
    ];

    /// The name written in outputs (`missed-win`).
    pub fn name(self) -> &'static str {
        match self {
            Class::Inaccuracy => "inaccuracy",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
            Class::MissedWin => "missed-win",
            Class::MissedShot => "missed-shot",
            Class::AllowedShot => "allowed-shot",
        }
    }

    /// The PDN annotation of a move of this class: `?!`, `?` or `??`.
    pub fn mark(self) -> &'static str {
        match self {
            Class::Inaccuracy => "?!",
            Class::Mistake | Class::MissedShot | Class::MissedWin => "?",
            Class::Blunder | Class::AllowedShot => "??",
        }
    }
}

/// Drops in winning chances that grade a move.
pub const INACCURACY: f64 = 0.075;
/// See [`INACCURACY`].
pub const MISTAKE: f64 = 0.15;
/// See [`INACCURACY`].
pub const BLUNDER: f64 = 0.30;
/// Winning chances from which a position counts as won.
pub const WON: f64 = 0.6;
/// Winning chances below which a won position has been let go.
pub const LET_GO: f64 = 0.3;

/// Scores are capped at this many hundredths of a man when losses are averaged, so that one
/// move in a lost position does not swamp a game's figures.
pub const LOSS_CAP: i32 = 1000;

/// The expected result, from -1 (lost) to +1 (won), of a score `v` on a curve of constant
/// `k` (a proven win or loss is ±1).
pub fn chances(v: i32, k: f64) -> f64 {
    if v.abs() >= search::DECIDED {
        return f64::from(v.signum());
    }
    2.0 / (1.0 + (-k * f64::from(v)).exp()) - 1.0
}

/// The accuracy of a move (0 to 100) from the mover's winning chances before and after it:
/// 100 for a move that keeps them, falling off exponentially with the drop (the shape
/// lichess publishes for chess, on winning percentages `50 + 50 * chances`).
pub fn accuracy(before: f64, after: f64) -> f64 {
    let drop = 50.0 * (before - after);
    if drop <= 0.0 {
        return 100.0;
    }
    (103.1668 * (-0.04354 * drop).exp() - 3.1669).clamp(0.0, 100.0)
}

/// What is known of a move when it is classed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Judged {
    /// The mover's winning chances before the move (with the best move) and after it.
    pub before: f64,
    /// See [`Judged::before`].
    pub after: f64,
    /// A shot was on the board and the move was not its first move.
    pub missed_shot: bool,
    /// The move gave the opponent a shot.
    pub allowed_shot: bool,
    /// The position's value for the mover before the move, and what the move cost, in
    /// hundredths of a man (for the floors of [`classify`]).
    pub score: i32,
    /// See [`Judged::score`].
    pub loss: i32,
}

/// A move that loses at least a man is at least a mistake while the position is not already
/// decided (within this many hundredths of a man of equal)...
pub const MAN_FLOOR_RANGE: i32 = 400;
/// ...and one that loses two men from a balanced position (within this much) is a blunder,
/// whatever the curve says.
pub const BALANCED: i32 = 100;

/// The class of a move, if it has one. The grade comes from the drop in winning chances,
/// raised by two floors in material: a man lost from a position not yet decided is at least a
/// mistake, two men lost from a balanced one a blunder. A move without a grade has no class,
/// whatever else is true of it; a graded move gets the allowed shot, the missed shot or the
/// missed win first, else its grade.
pub fn classify(j: &Judged) -> Option<Class> {
    let drop = j.before - j.after;
    let by_curve = if drop >= BLUNDER {
        Some(Class::Blunder)
    } else if drop >= MISTAKE {
        Some(Class::Mistake)
    } else if drop >= INACCURACY {
        Some(Class::Inaccuracy)
    } else {
        None
    };
    let by_men = if j.loss >= 200 && j.score.abs() <= BALANCED {
        Some(Class::Blunder)
    } else if j.loss >= 100 && j.score.abs() <= MAN_FLOOR_RANGE {
        Some(Class::Mistake)
    } else {
        None
    };
    let grade = by_curve.max(by_men)?;
    if j.allowed_shot {
        return Some(Class::AllowedShot);
    }
    if j.missed_shot {
        return Some(Class::MissedShot);
    }
    if j.before >= WON && j.after < LET_GO {
        return Some(Class::MissedWin);
    }
    Some(grade)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(before: i32, after: i32) -> Judged {
        Judged {
            before: chances(before, 0.004),
            after: chances(after, 0.004),
            missed_shot: false,
            allowed_shot: false,
            score: before,
            loss: (before.clamp(-LOSS_CAP, LOSS_CAP) - after.clamp(-LOSS_CAP, LOSS_CAP)).max(0),
        }
    }

    #[test]
    fn a_man_lost_from_a_balanced_position_is_a_mistake_two_a_blunder() {
        assert_eq!(classify(&judged(0, -100)), Some(Class::Mistake));
        assert_eq!(classify(&judged(0, -200)), Some(Class::Blunder));
        assert_eq!(classify(&judged(0, -40)), Some(Class::Inaccuracy));
        assert_eq!(classify(&judged(0, -10)), None);
        // Deep in a lost position a man more or less changes little.
        assert_eq!(classify(&judged(-900, -1000)), None);
    }

    #[test]
    fn a_man_lost_is_a_mistake_until_the_game_is_decided() {
        // Three men up, one given back: the curve says little, the floor says mistake.
        assert_eq!(classify(&judged(350, 250)), Some(Class::Mistake));
        assert_eq!(classify(&judged(-300, -400)), Some(Class::Mistake));
        // Two men from a balanced position: a blunder even on a flat curve.
        let mut flat = judged(50, -150);
        flat.before = chances(50, 0.001);
        flat.after = chances(-150, 0.001);
        assert_eq!(classify(&flat), Some(Class::Blunder));
        // Five men up, a man given back: no floor.
        assert_eq!(classify(&judged(500, 400)), Some(Class::Inaccuracy));
    }

    #[test]
    fn a_won_position_let_go_is_a_missed_win() {
        assert_eq!(classify(&judged(400, 50)), Some(Class::MissedWin));
        assert_eq!(
            classify(&judged(search::WIN - 5, 50)),
            Some(Class::MissedWin)
        );
        // Still won after the move: graded by the drop only.
        assert_eq!(classify(&judged(900, 500)), Some(Class::Mistake));
    }

    #[test]
    fn shots_come_before_grades_but_only_for_moves_that_lose() {
        let mut j = judged(0, -250);
        j.allowed_shot = true;
        j.missed_shot = true;
        assert_eq!(classify(&j), Some(Class::AllowedShot));
        j.allowed_shot = false;
        assert_eq!(classify(&j), Some(Class::MissedShot));
        let mut small = judged(0, -5);
        small.missed_shot = true;
        assert_eq!(classify(&small), None);
    }

    #[test]
    fn accuracy_is_full_for_a_kept_position_and_falls_with_the_drop() {
        assert_eq!(accuracy(0.2, 0.2), 100.0);
        assert_eq!(accuracy(0.2, 0.5), 100.0);
        let small = accuracy(0.2, 0.1);
        let big = accuracy(0.2, -0.6);
        assert!(small > big && big >= 0.0 && small < 100.0, "{small} {big}");
        assert_eq!(chances(search::WIN - 3, 0.004), 1.0);
        assert!((chances(100, 0.004) - 0.197).abs() < 0.001);
    }
}
