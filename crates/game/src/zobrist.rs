//! Position keys: 64-bit Zobrist hashes that every game computes the same documented way.
//!
//! A key is the XOR of entries of one fixed table, [`TABLE`], one entry per feature of the
//! position (a piece of some kind on some square, the seat to move, a game's extra state).
//! Entry `i` is output `i + 1` of the SplitMix64 generator seeded with [`SEED`]
//! ([`entry`]), so another program rebuilds the table in a few lines. The table is laid out
//! in three regions:
//!
//! - pieces: entry `256 * kind + square` ([`piece`]), `kind < 16`, `square < 256`, where
//!   each game says what its kinds and square numbers are;
//! - the seat to move: entry `4096 + seat` ([`to_move`]);
//! - anything else a game needs: entry `4352 + j` ([`extra`]), `j < 512`.
//!
//! A feature absent from the position contributes nothing, so two positions get the same key
//! exactly when they have the same features (barring a 64-bit collision). Keys are updated
//! cheaply after a move by XOR-ing the entries of the features that changed.

/// The seed of the generator: the bytes of `arbiter!` read as a big-endian number.
pub const SEED: u64 = 0x6172_6269_7465_7221;

/// Entries in [`TABLE`].
pub const TABLE_LEN: usize = 4352 + 512;

/// Start of the seat-to-move region.
const TO_MOVE: usize = 4096;
/// Start of the region of extra features.
const EXTRA: usize = 4352;

/// SplitMix64's increment (the golden ratio in 64 bits).
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function.
const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Entry `i` of the table: SplitMix64 seeded with [`SEED`], output number `i + 1`
/// (the state is `SEED + (i + 1) * GAMMA`, wrapping, before the output function).
pub const fn entry(i: usize) -> u64 {
    mix(SEED.wrapping_add((i as u64 + 1).wrapping_mul(GAMMA)))
}

const fn build() -> [u64; TABLE_LEN] {
    let mut t = [0u64; TABLE_LEN];
    let mut i = 0;
    while i < TABLE_LEN {
        t[i] = entry(i);
        i += 1;
    }
    t
}

/// The whole table, computed at compile time.
pub static TABLE: [u64; TABLE_LEN] = build();

/// The entry of a piece of `kind` (0..16) on square `square` (0..256), both as the game
/// documents them.
#[inline(always)]
pub fn piece(kind: usize, square: usize) -> u64 {
    TABLE[((kind & 15) << 8) | (square & 255)]
}

/// The entry of `seat` to move (0..256).
#[inline(always)]
pub fn to_move(seat: usize) -> u64 {
    TABLE[TO_MOVE + (seat & 255)]
}

/// Extra feature `j` (0..512) of a game.
#[inline(always)]
pub fn extra(j: usize) -> u64 {
    TABLE[EXTRA + (j & 511)]
}

/// The XOR of the piece entries of `kind` for every set bit of `bits`, where bit `b` stands
/// for square `square_of(b)`.
#[inline]
pub fn pieces_u64(kind: usize, mut bits: u64, square_of: impl Fn(u32) -> usize) -> u64 {
    let mut key = 0;
    while bits != 0 {
        key ^= piece(kind, square_of(bits.trailing_zeros()));
        bits &= bits - 1;
    }
    key
}

/// [`pieces_u64`] for a 128-bit board.
#[inline]
pub fn pieces_u128(kind: usize, mut bits: u128, square_of: impl Fn(u32) -> usize) -> u64 {
    let mut key = 0;
    while bits != 0 {
        key ^= piece(kind, square_of(bits.trailing_zeros()));
        bits &= bits - 1;
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_follow_splitmix64() {
        // SplitMix64 seeded with 0: the first outputs as published with the generator.
        let from_zero = |n: u64| mix(n.wrapping_mul(GAMMA));
        assert_eq!(from_zero(1), 0xE220_A839_7B1D_CDAF);
        assert_eq!(from_zero(2), 0x6E78_9E6A_A1B9_65F4);
        // The table is the seeded sequence.
        let mut state = SEED;
        for (i, &e) in TABLE.iter().enumerate().take(100) {
            state = state.wrapping_add(GAMMA);
            assert_eq!(e, mix(state), "entry {i}");
        }
    }

    #[test]
    fn entries_are_distinct_and_regions_do_not_overlap() {
        let mut all: Vec<u64> = TABLE.to_vec();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), TABLE_LEN);
        assert_eq!(piece(15, 255), TABLE[4095]);
        assert_eq!(to_move(0), TABLE[4096]);
        assert_eq!(extra(0), TABLE[4352]);
        assert_eq!(extra(511), TABLE[TABLE_LEN - 1]);
    }

    #[test]
    fn piece_sums_visit_every_bit() {
        let bits = 0b1011u64 << 60 | 1;
        let by_hand = piece(2, 1) ^ piece(2, 61) ^ piece(2, 62) ^ piece(2, 64);
        assert_eq!(pieces_u64(2, bits, |b| b as usize + 1), by_hand);
        assert_eq!(
            pieces_u128(2, u128::from(bits), |b| b as usize + 1),
            by_hand
        );
        assert_eq!(pieces_u128(0, 1u128 << 127, |b| b as usize), piece(0, 127));
    }
}

/// The key of a game that declares no features: FNV-1a (64-bit: offset basis
/// `0xcbf29ce484222325`, prime `0x100000001b3`) over the bytes of its position string.
pub fn text_key(position: &str) -> u64 {
    position.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod text_key_tests {
    use super::text_key;

    #[test]
    fn text_key_is_fnv1a() {
        // FNV-1a's published check values.
        assert_eq!(text_key(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(text_key("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(text_key("foobar"), 0x8594_4171_f739_67e8);
    }
}
