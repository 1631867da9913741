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
    /// The position's value for the mover before the move (with the best move) and after it,
    /// and what the move cost, in hundredths of a man (for the floors of [`classify`]).
    pub score_before: i32,
    /// See [`Judged::score_before`].
    pub score_after: i32,
    /// See [`Judged::score_before`].
    pub loss: i32,
}

impl Judged {
    /// A move whose mover's values before (with the best move) and after are `before` and
    /// `after`, on a curve of constant `k`, with no shot in sight.
    pub fn new(before: i32, after: i32, k: f64) -> Judged {
        Judged {
            before: chances(before, k),
            after: chances(after, k),
            missed_shot: false,
            allowed_shot: false,
            score_before: before,
            score_after: after,
            loss: (before.clamp(-LOSS_CAP, LOSS_CAP) - after.clamp(-LOSS_CAP, LOSS_CAP)).max(0),
        }
    }
}

/// A move that loses at least a man is at least a mistake unless the position was already
/// hopeless: within this many hundredths of a man of equal (the cap of the losses, so that
/// one rule says where material stops counting)...
pub const MAN_FLOOR_RANGE: i32 = LOSS_CAP;
/// ...and one that loses two men from a balanced position (within this much) is a blunder,
/// whatever the curve says.
pub const BALANCED: i32 = 100;

/// The class of a move, if it has one. The grade comes from the drop in winning chances,
/// raised by floors: a man lost from a position not yet hopeless is at least a mistake, two
/// men lost from a balanced one a blunder, and a proven result changed for the worse (a
/// proven loss walked into, a proven win let go) is at least a mistake unless the position
/// was already beyond [`LOSS_CAP`] (the curve, flat there, cannot see what a proof changes;
/// lichess grades a mate walked into or let go in the same way). A move without a grade has
/// no class, whatever else is true of it; a graded move gets the allowed shot, the missed
/// shot or the missed win first, else its grade.
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
    let by_men = if j.loss >= 200 && j.score_before.abs() <= BALANCED {
        Some(Class::Blunder)
    } else if j.loss >= 100 && j.score_before.abs() <= MAN_FLOOR_RANGE {
        Some(Class::Mistake)
    } else {
        None
    };
    let grade = by_curve.max(by_men).max(by_proof(j))?;
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

/// The floor for a proven result changed for the worse (see [`classify`]).
fn by_proof(j: &Judged) -> Option<Class> {
    let proven = |v: i32| v.abs() >= search::DECIDED;
    let (before, after) = (j.score_before, j.score_after);
    let walked_into_loss = after < 0 && proven(after) && !proven(before) && before > -LOSS_CAP;
    let win_let_go =
        before > 0 && proven(before) && !(after > 0 && proven(after)) && after < LOSS_CAP;
    (walked_into_loss || win_let_go).then_some(Class::Mistake)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(before: i32, after: i32) -> Judged {
        Judged::new(before, after, 0.004)
    }

    #[test]
    fn a_man_lost_from_a_balanced_position_is_a_mistake_two_a_blunder() {
        assert_eq!(classify(&judged(0, -100)), Some(Class::Mistake));
        assert_eq!(classify(&judged(0, -200)), Some(Class::Blunder));
        assert_eq!(classify(&judged(0, -40)), Some(Class::Inaccuracy));
        assert_eq!(classify(&judged(0, -10)), None);
        // Beyond ten men down a man more or less changes nothing.
        assert_eq!(classify(&judged(-1100, -1200)), None);
    }

    #[test]
    fn a_man_lost_is_a_mistake_until_the_game_is_hopeless() {
        // Three men up, one given back: the curve says little, the floor says mistake.
        assert_eq!(classify(&judged(350, 250)), Some(Class::Mistake));
        assert_eq!(classify(&judged(-300, -400)), Some(Class::Mistake));
        // Two men from a balanced position: a blunder even on a flat curve.
        let mut flat = judged(50, -150);
        flat.before = chances(50, 0.001);
        flat.after = chances(-150, 0.001);
        assert_eq!(classify(&flat), Some(Class::Blunder));
        // Five men up, a man given away: the curve barely moves, the floor says mistake.
        assert_eq!(classify(&judged(500, 400)), Some(Class::Mistake));
        // Twelve men up: nothing counts.
        assert_eq!(classify(&judged(1200, 1100)), None);
    }

    #[test]
    fn a_proven_result_changed_for_the_worse_is_a_mistake_until_hopeless() {
        let lost = -search::WIN + 9;
        let won = search::WIN - 9;
        // A move that lets the opponent force the end: from eight men down the curve drops
        // only 0.08 (an inaccuracy), the floor makes it a mistake.
        assert_eq!(classify(&judged(-450, lost)), Some(Class::Mistake));
        assert_eq!(classify(&judged(-800, lost)), Some(Class::Mistake));
        // Already hopeless, or already proven lost: no floor.
        assert_eq!(classify(&judged(-1200, lost)), None);
        assert_eq!(classify(&judged(lost + 2, lost)), None);
        // A forced win given up for a large advantage: a mistake; for a crushing one, none.
        assert_eq!(classify(&judged(won, 700)), Some(Class::Mistake));
        assert_eq!(classify(&judged(won, 1500)), None);
        // A proven win kept, if longer: no floor.
        assert_eq!(classify(&judged(won, won - 4)), None);
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
