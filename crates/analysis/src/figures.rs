//! Figures of a player over the moves analysed: average loss, accuracy, classes, agreement.

use serde::Serialize;

use crate::{Class, PlyAnalysis};

/// A player's (or a seat's) figures over any number of games.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Figures {
    /// Games in which the player moved.
    pub games: u32,
    /// Moves analysed.
    pub moves: u32,
    /// The sum of the losses (hundredths of a man).
    pub total_loss: i64,
    /// The sum of the moves' accuracies.
    pub accuracy_sum: f64,
    /// Moves that were the engine's first choice.
    pub agreed: u32,
    /// Moves of each class, in the order of [`Class::ALL`].
    pub counts: [u32; 6],
}

impl Figures {
    /// Counts one analysed move.
    pub fn add(&mut self, p: &PlyAnalysis) {
        self.moves += 1;
        self.total_loss += i64::from(p.loss);
        self.accuracy_sum += p.accuracy;
        self.agreed += u32::from(p.agreed);
        if let Some(c) = p.class {
            self.counts[class_index(c)] += 1;
        }
    }

    /// Adds another's figures to these.
    pub fn merge(&mut self, other: &Figures) {
        self.games += other.games;
        self.moves += other.moves;
        self.total_loss += other.total_loss;
        self.accuracy_sum += other.accuracy_sum;
        self.agreed += other.agreed;
        for (a, b) in self.counts.iter_mut().zip(other.counts) {
            *a += b;
        }
    }

    /// Average loss per move (hundredths of a man), 0 without moves.
    pub fn average_loss(&self) -> f64 {
        ratio(self.total_loss as f64, self.moves)
    }

    /// Average accuracy, 0 to 100 (0 without moves).
    pub fn accuracy(&self) -> f64 {
        ratio(self.accuracy_sum, self.moves)
    }

    /// Share of moves that were the engine's first choice, 0 to 100.
    pub fn agreement(&self) -> f64 {
        100.0 * ratio(f64::from(self.agreed), self.moves)
    }

    /// Moves of class `c`.
    pub fn count(&self, c: Class) -> u32 {
        self.counts[class_index(c)]
    }
}

fn ratio(x: f64, n: u32) -> f64 {
    if n == 0 {
        0.0
    } else {
        x / f64::from(n)
    }
}

fn class_index(c: Class) -> usize {
    Class::ALL.iter().position(|&k| k == c).unwrap_or(0)
}
