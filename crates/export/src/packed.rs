//! The rows of one game packed into bytes, for the partitioned writer: a game waiting for
//! its partition to be written costs the bytes of its values (plus a few bytes of lengths),
//! not a [`GameRow`] of twenty optional strings and a [`PlyRow`] of eight allocations per
//! ply. Little-endian integers; a string is its length (`u32`) then its bytes; an optional
//! value is a byte (0 absent, 1 present) then the value.
//!
//! The packed form leaves out `game_id` and `index` (the writer gives them).

use crate::sink::{PlyFields, Throws};
use crate::{DiagnosticRow, ExportError, GameRow, PlyRow, GAMES_FILE};

fn u32_(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn u64_(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn str_(out: &mut Vec<u8>, s: &str) {
    u32_(out, s.len() as u32);
    out.extend_from_slice(s.as_bytes());
}

fn opt_str(out: &mut Vec<u8>, s: Option<&str>) {
    match s {
        Some(s) => {
            out.push(1);
            str_(out, s);
        }
        None => out.push(0),
    }
}

fn opt_u32(out: &mut Vec<u8>, v: Option<u32>) {
    match v {
        Some(v) => {
            out.push(1);
            u32_(out, v);
        }
        None => out.push(0),
    }
}

/// Appends a game with its plies and diagnostics to `out`.
pub(crate) fn pack_game(
    out: &mut Vec<u8>,
    game: &GameRow,
    plies: &[PlyRow],
    diagnostics: &[DiagnosticRow],
) {
    pack_head(out, game);
    u32_(out, plies.len() as u32);
    for p in plies {
        pack_ply(out, p.fields());
    }
    pack_diagnostics(out, diagnostics);
}

/// Appends a game's own fields to `out`: its plies (their number, then each with
/// [`pack_ply`]) and its diagnostics ([`pack_diagnostics`]) must follow.
pub(crate) fn pack_head(out: &mut Vec<u8>, game: &GameRow) {
    str_(out, &game.file);
    u64_(out, game.offset);
    opt_str(out, game.variant.as_deref());
    for t in &game.tags {
        opt_str(out, t.as_deref());
    }
    u32_(out, game.other_tags.len() as u32);
    for (k, v) in &game.other_tags {
        str_(out, k);
        str_(out, v);
    }
    opt_str(out, game.recorded_result.as_deref());
    opt_str(out, game.rules_result.as_deref());
    for v in [
        game.plies_written,
        game.plies_replayed,
        game.errors,
        game.warnings,
    ] {
        u32_(out, v);
    }
    opt_str(out, game.first_error_code.as_deref());
    opt_u32(out, game.first_error_ply);
    opt_str(out, game.opening.as_deref());
    match game.start_key {
        Some(k) => {
            out.push(1);
            u64_(out, k);
        }
        None => out.push(0),
    }
}

/// Appends one ply to `out`.
pub(crate) fn pack_ply<'a>(
    out: &mut Vec<u8>,
    p: PlyFields<'a, impl ExactSizeIterator<Item = &'a str>>,
) {
    u32_(out, p.ply);
    str_(out, p.mover);
    opt_str(out, p.notation);
    opt_str(out, p.from);
    opt_str(out, p.to);
    u32_(out, p.captured.len() as u32);
    for c in p.captured {
        str_(out, c);
    }
    u32_(out, p.pieces_taken);
    out.push(u8::from(p.promotion));
    u64_(out, p.position_key);
    opt_str(out, p.fen_after);
    let mut throws = |n: usize, each: &mut dyn Iterator<Item = i32>| {
        u32_(out, n as u32);
        for t in each {
            out.extend_from_slice(&t.to_le_bytes());
        }
    };
    match p.throws {
        Throws::Wide(t) => throws(t.len(), &mut t.iter().copied()),
        Throws::Narrow(t) => throws(t.len(), &mut t.iter().map(|&t| i32::from(t))),
        Throws::Packed(t) => throws(t.len() / 4, &mut t.chunks_exact(4).map(throw)),
    }
    u32_(out, p.lost_throws);
}

/// Appends a game's diagnostics to `out`.
pub(crate) fn pack_diagnostics(out: &mut Vec<u8>, diagnostics: &[DiagnosticRow]) {
    u32_(out, diagnostics.len() as u32);
    for d in diagnostics {
        str_(out, &d.file);
        u64_(out, d.byte);
        u64_(out, d.line);
        u64_(out, d.column);
        str_(out, &d.code);
        str_(out, &d.severity);
        str_(out, &d.message);
        opt_u32(out, d.ply);
        opt_u32(out, d.move_number);
    }
}

/// Reads packed values from the front of a slice; `None` when it ends too soon.
pub(crate) struct Unpack<'a>(pub(crate) &'a [u8]);

impl<'a> Unpack<'a> {
    fn bytes(&mut self, n: usize) -> Option<&'a [u8]> {
        if self.0.len() < n {
            return None;
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Some(head)
    }

    fn byte(&mut self) -> Option<u8> {
        self.bytes(1).map(|b| b[0])
    }

    pub(crate) fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.bytes(4)?.try_into().ok()?))
    }

    pub(crate) fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.bytes(8)?.try_into().ok()?))
    }

    /// A string as packed: valid UTF-8, since it was packed from a `&str`.
    fn str(&mut self) -> Option<&'a str> {
        let n = self.u32()? as usize;
        std::str::from_utf8(self.bytes(n)?).ok()
    }

    fn opt_str(&mut self) -> Option<Option<&'a str>> {
        Some(match self.byte()? {
            0 => None,
            _ => Some(self.str()?),
        })
    }

    fn string(&mut self) -> Option<String> {
        self.str().map(str::to_string)
    }

    fn opt_string(&mut self) -> Option<Option<String>> {
        Some(self.opt_str()?.map(str::to_string))
    }

    fn opt_u32(&mut self) -> Option<Option<u32>> {
        Some(match self.byte()? {
            0 => None,
            _ => Some(self.u32()?),
        })
    }

    /// Reads a packed game's own fields into `game` (which are overwritten; `game.index` is
    /// left as it was). Its plies follow: their number ([`Unpack::u32`]), then each one
    /// ([`Unpack::ply`]), then its diagnostics ([`Unpack::diagnostics`]).
    pub(crate) fn game_fields(&mut self, game: &mut GameRow) -> Option<()> {
        game.file = self.string()?;
        game.offset = self.u64()?;
        game.variant = self.opt_string()?;
        for t in game.tags.iter_mut() {
            *t = self.opt_string()?;
        }
        let n = self.u32()?;
        game.other_tags.clear();
        for _ in 0..n {
            let k = self.string()?;
            let v = self.string()?;
            game.other_tags.push((k, v));
        }
        game.recorded_result = self.opt_string()?;
        game.rules_result = self.opt_string()?;
        game.plies_written = self.u32()?;
        game.plies_replayed = self.u32()?;
        game.errors = self.u32()?;
        game.warnings = self.u32()?;
        game.first_error_code = self.opt_string()?;
        game.first_error_ply = self.opt_u32()?;
        game.opening = self.opt_string()?;
        game.start_key = match self.byte()? {
            0 => None,
            _ => Some(self.u64()?),
        };
        Some(())
    }

    /// One ply, its text borrowed from the packed bytes.
    pub(crate) fn ply(&mut self) -> Option<PlyFields<'a, PackedStrs<'a>>> {
        let ply = self.u32()?;
        let mover = self.str()?;
        let notation = self.opt_str()?;
        let from = self.opt_str()?;
        let to = self.opt_str()?;
        let left = self.u32()?;
        let start = self.0;
        for _ in 0..left {
            self.str()?;
        }
        let captured = PackedStrs {
            rest: &start[..start.len() - self.0.len()],
            left,
        };
        let pieces_taken = self.u32()?;
        let promotion = self.byte()? != 0;
        let position_key = self.u64()?;
        let fen_after = self.opt_str()?;
        let throws = self.u32()? as usize;
        let throws = Throws::Packed(self.bytes(throws.checked_mul(4)?)?);
        let lost_throws = self.u32()?;
        Some(PlyFields {
            ply,
            mover,
            notation,
            from,
            to,
            captured,
            pieces_taken,
            promotion,
            position_key,
            fen_after,
            throws,
            lost_throws,
        })
    }

    /// A game's diagnostics, into `out` (overwritten).
    pub(crate) fn diagnostics(&mut self, out: &mut Vec<DiagnosticRow>) -> Option<()> {
        out.clear();
        for _ in 0..self.u32()? {
            out.push(DiagnosticRow {
                file: self.string()?,
                byte: self.u64()?,
                line: self.u64()?,
                column: self.u64()?,
                code: self.string()?,
                severity: self.string()?,
                message: self.string()?,
                ply: self.opt_u32()?,
                move_number: self.opt_u32()?,
            });
        }
        Some(())
    }

    /// Reads a game packed by [`pack_game`] into rows (the writer pushes the packed fields
    /// instead, [`crate::ParquetSink`]'s `push_packed`).
    #[cfg(test)]
    pub(crate) fn game(
        &mut self,
        game: &mut GameRow,
        plies: &mut Vec<PlyRow>,
        diagnostics: &mut Vec<DiagnosticRow>,
    ) -> Option<()> {
        self.game_fields(game)?;
        plies.clear();
        for _ in 0..self.u32()? {
            plies.push(self.ply()?.into_row());
        }
        self.diagnostics(diagnostics)
    }
}

/// A throw as packed (four bytes, little-endian).
pub(crate) fn throw(b: &[u8]) -> i32 {
    i32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

/// The squares a packed ply took, read as they are asked for.
pub(crate) struct PackedStrs<'a> {
    rest: &'a [u8],
    left: u32,
}

impl<'a> Iterator for PackedStrs<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let mut u = Unpack(self.rest);
        let s = u.str();
        self.rest = u.0;
        s
    }
}

/// The error of packed rows that end too soon or hold what was never packed.
pub(crate) fn corrupt() -> ExportError {
    ExportError::Parquet {
        file: GAMES_FILE,
        source: parquet::errors::ParquetError::General("a partition's rows are cut".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_comes_back_as_it_was_packed() {
        let mut game = GameRow {
            file: "a.pdn".into(),
            offset: 17,
            variant: Some("english".into()),
            recorded_result: Some("1-0".into()),
            plies_written: 3,
            plies_replayed: 2,
            errors: 1,
            first_error_code: Some("illegal-move".into()),
            first_error_ply: Some(3),
            start_key: Some(u64::MAX - 3),
            ..GameRow::default()
        };
        game.set_tag("Event", "É");
        game.set_tag("Event", "again");
        let plies = vec![
            PlyRow {
                ply: 1,
                mover: "Black".into(),
                notation: Some("11x18".into()),
                captured: vec!["15".into()],
                pieces_taken: 1,
                promotion: true,
                position_key: 42,
                fen_after: Some("B:W1:B2".into()),
                throws: vec![-1, 6],
                lost_throws: 2,
                ..PlyRow::default()
            },
            PlyRow::default(),
        ];
        let diags = vec![DiagnosticRow {
            file: "a.pdn".into(),
            byte: 9,
            line: 2,
            column: 3,
            code: "x".into(),
            severity: "error".into(),
            message: "m".into(),
            ply: None,
            move_number: Some(2),
        }];
        let mut bytes = Vec::new();
        pack_game(&mut bytes, &game, &plies, &diags);
        pack_game(&mut bytes, &GameRow::default(), &[], &[]);
        let mut u = Unpack(&bytes);
        let (mut g, mut p, mut d) = (GameRow::default(), vec![PlyRow::default()], Vec::new());
        u.game(&mut g, &mut p, &mut d).unwrap();
        assert_eq!((g, p, d), (game, plies, diags));
        let (mut g, mut p, mut d) = (GameRow::default(), Vec::new(), Vec::new());
        u.game(&mut g, &mut p, &mut d).unwrap();
        assert_eq!(g, GameRow::default());
        assert!(u.0.is_empty());
        assert!(Unpack(&bytes[..10]).game(&mut g, &mut p, &mut d).is_none());
    }
}
