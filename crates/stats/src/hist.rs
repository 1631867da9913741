//! A bounded, mergeable histogram of small non-negative integers.

use serde::{Deserialize, Serialize};

/// Values from `0` to `HIST_CAP - 1` are counted exactly, one bin per value; larger values are
/// counted together in an overflow bin (their sum and maximum are still exact).
pub const HIST_CAP: u64 = 4096;

/// Counts of integer values (plies, captures, throws …) with exact count, sum, minimum and
/// maximum, one bin per value below [`HIST_CAP`] and one overflow bin above.
///
/// The bin vector grows only up to the largest value seen (at most [`HIST_CAP`] entries), so a
/// histogram of small numbers stays small. Merging adds bins element-wise and is associative
/// and commutative: merged histograms are equal to one built from all values.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Histogram {
    count: u64,
    sum: u64,
    min: Option<u64>,
    max: Option<u64>,
    bins: Vec<u64>,
    overflow: u64,
}

/// One bar of a re-binned histogram: the values `lo..=hi` were seen `count` times.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Bar {
    /// Smallest value of the bar.
    pub lo: u64,
    /// Largest value of the bar.
    pub hi: u64,
    /// How many values fell in `lo..=hi`.
    pub count: u64,
}

impl Histogram {
    /// Counts one value.
    pub fn add(&mut self, value: u64) {
        self.count += 1;
        self.sum = self.sum.saturating_add(value);
        self.min = Some(self.min.map_or(value, |m| m.min(value)));
        self.max = Some(self.max.map_or(value, |m| m.max(value)));
        if value < HIST_CAP {
            let i = value as usize;
            if self.bins.len() <= i {
                self.bins.resize(i + 1, 0);
            }
            self.bins[i] += 1;
        } else {
            self.overflow += 1;
        }
    }

    /// Adds every count of `other`.
    pub fn merge(&mut self, other: &Histogram) {
        self.count += other.count;
        self.sum = self.sum.saturating_add(other.sum);
        self.min = match (self.min, other.min) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.max = self.max.max(other.max);
        if self.bins.len() < other.bins.len() {
            self.bins.resize(other.bins.len(), 0);
        }
        for (a, b) in self.bins.iter_mut().zip(&other.bins) {
            *a += b;
        }
        self.overflow += other.overflow;
    }

    /// Number of values counted.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Sum of all values (saturating).
    pub fn sum(&self) -> u64 {
        self.sum
    }

    /// Smallest value, if any.
    pub fn min(&self) -> Option<u64> {
        self.min
    }

    /// Largest value, if any.
    pub fn max(&self) -> Option<u64> {
        self.max
    }

    /// Mean value, if any.
    pub fn mean(&self) -> Option<f64> {
        (self.count > 0).then(|| self.sum as f64 / self.count as f64)
    }

    /// Distinct values seen; the values at or above [`HIST_CAP`] count as one.
    pub fn distinct(&self) -> usize {
        self.bins.iter().filter(|&&n| n > 0).count() + usize::from(self.overflow > 0)
    }

    /// Values at or above [`HIST_CAP`].
    pub fn overflow(&self) -> u64 {
        self.overflow
    }

    /// How often `value` was seen (`None` for values at or above [`HIST_CAP`], which are only
    /// counted together).
    pub fn count_of(&self, value: u64) -> Option<u64> {
        (value < HIST_CAP).then(|| self.bins.get(value as usize).copied().unwrap_or(0))
    }

    /// The nearest-rank quantile `q` (0 ≤ q ≤ 1): the smallest value such that at least
    /// `q · count` values are at or below it. When that rank falls in the overflow bin the
    /// maximum is returned.
    pub fn quantile(&self, q: f64) -> Option<u64> {
        if self.count == 0 {
            return None;
        }
        let rank = ((q.clamp(0.0, 1.0) * self.count as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for (value, &n) in self.bins.iter().enumerate() {
            seen += n;
            if seen >= rank {
                return Some(value as u64);
            }
        }
        self.max
    }

    /// The exactly counted values grouped into at most `max_bars` bars of equal width (1, 2, 5,
    /// 10, 20, 50 …), from the smallest to the largest value below [`HIST_CAP`]. Empty bars
    /// inside the range are kept, so the bars tile the range.
    pub fn bars(&self, max_bars: usize) -> Vec<Bar> {
        let (Some(min), Some(_)) = (self.min, self.max) else {
            return Vec::new();
        };
        if self.bins.is_empty() || min >= HIST_CAP {
            return Vec::new();
        }
        let hi = self.bins.len() as u64 - 1;
        let width = nice_width(hi - min + 1, max_bars.max(1) as u64);
        let start = min / width * width;
        let mut bars = Vec::new();
        let mut lo = start;
        while lo <= hi {
            let top = (lo + width - 1).min(hi);
            let count = (lo..=top)
                .map(|v| self.bins.get(v as usize).copied().unwrap_or(0))
                .sum();
            bars.push(Bar { lo, hi: top, count });
            lo += width;
        }
        bars
    }
}

/// The smallest width of the 1-2-5 series that covers `span` values in at most `max_bars` bars.
fn nice_width(span: u64, max_bars: u64) -> u64 {
    let mut unit = 1u64;
    loop {
        for step in [1, 2, 5] {
            let w = unit * step;
            if span.div_ceil(w) <= max_bars {
                return w;
            }
        }
        unit = unit.saturating_mul(10);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_quantiles() {
        let mut h = Histogram::default();
        for v in [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5] {
            h.add(v);
        }
        assert_eq!(h.count(), 11);
        assert_eq!(h.sum(), 44);
        assert_eq!((h.min(), h.max()), (Some(1), Some(9)));
        assert_eq!(h.count_of(5), Some(3));
        // sorted: 1 1 2 3 3 4 5 5 5 6 9
        assert_eq!(h.quantile(0.5), Some(4));
        assert_eq!(h.quantile(0.9), Some(6));
        assert_eq!(h.quantile(1.0), Some(9));
        assert_eq!(h.quantile(0.0), Some(1));
    }

    #[test]
    fn overflow_keeps_sum_and_max() {
        let mut h = Histogram::default();
        h.add(HIST_CAP + 10);
        h.add(2);
        assert_eq!(h.overflow(), 1);
        assert_eq!(h.max(), Some(HIST_CAP + 10));
        assert_eq!(h.sum(), HIST_CAP + 12);
        assert_eq!(h.quantile(1.0), Some(HIST_CAP + 10));
        assert_eq!(
            h.bars(10),
            vec![Bar {
                lo: 2,
                hi: 2,
                count: 1
            }]
        );
    }

    #[test]
    fn bars_tile_the_range() {
        let mut h = Histogram::default();
        for v in 0..=95 {
            h.add(v);
        }
        h.add(7);
        let bars = h.bars(40);
        // 96 values need width 5 for at most 40 bars
        assert_eq!(bars.len(), 20);
        assert_eq!(
            bars[0],
            Bar {
                lo: 0,
                hi: 4,
                count: 5
            }
        );
        assert_eq!(
            bars[1],
            Bar {
                lo: 5,
                hi: 9,
                count: 6
            }
        );
        assert_eq!(bars.last().unwrap().hi, 95);
        assert_eq!(bars.iter().map(|b| b.count).sum::<u64>(), 97);
        assert_eq!(nice_width(3, 40), 1);
        assert_eq!(nice_width(401, 40), 20);
    }

    #[test]
    fn empty_histogram() {
        let h = Histogram::default();
        assert_eq!(h.mean(), None);
        assert_eq!(h.quantile(0.5), None);
        assert!(h.bars(10).is_empty());
    }
}
