//! The move phase of one series (rules 6, 8–16, 18): actions applied one at a time, with the
//! bookkeeping the rules look back at (which units already moved, which pieces reached the
//! keep in this series, which throws are left).

use std::borrow::BorrowMut;

use crate::board::{route_square, Square, INDEX, KEEP_INDEX, ROUTE, TWIN_INDEX};
use crate::position::{Position, Side};
use crate::throws::{ThrowSeq, Throws, VALUES};

/// One action of a series, in the order the record gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// `in`: a 1 brings a piece from hand onto the mover's palace (rule 9).
    Enter,
    /// `c1+4+2`, `Tc5+8+4`: a unit advances by its throws (rule 10).
    Advance(Advance),
    /// `Tc5`: two singles on the mover's opposite palace become twins (rule 15).
    Twins,
    /// `off`: a 1 bears a piece off from the keep (rule 16).
    BearOff,
}

/// An advance, with what it led to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Advance {
    /// The square the unit started from.
    pub from: Square,
    /// True for a twin, false for a single.
    pub twin: bool,
    /// The throws used.
    pub throws: Throws,
    /// The square of arrival (`c3` for the keep).
    pub to: Square,
    /// Enemy pieces sent home by this move (a twin counts two); non-zero makes it a
    /// capturing move, which earns an extra series (rule 14).
    pub captured: u8,
}

/// Why an action is not legal, with what the message needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Illegal {
    NoOneToEnter,
    NothingInHand,
    NoUnit {
        square: Square,
        twin: bool,
        other_kind: bool,
    },
    InKeep,
    AlreadyMoved {
        square: Square,
        twin: bool,
    },
    ThrowMissing(u8),
    TwinsTooShort {
        points: u32,
    },
    LudiiOneThrow,
    LudiiTwinOne,
    PassesKeep {
        distance: u32,
        to_go: u8,
    },
    TwinSquare {
        expected: Square,
    },
    TwinsNeedTwo {
        square: Square,
        have: u8,
    },
    OutsideKeep,
    NoOneToBearOff,
    KeepAllFresh,
    KeepEmpty,
    GameOver,
}

/// A series in progress for the seat to move. `P` holds the position the series changes:
/// a `&mut Position` to play in place (the referee's path, no copy), or an owned
/// [`Position`] where states are kept and compared (the searches).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Run<P = Position> {
    pub pos: P,
    pub seat: u8,
    /// Singles per route index that already moved in this series.
    pub moved_s: [u8; 24],
    /// Twins per route index that count as moved in this series.
    pub moved_t: [u8; 24],
    /// Pieces that reached the keep in this series (they cannot bear off in it).
    pub fresh: u8,
    /// Throws not yet used.
    pub left: Throws,
    /// Throws used so far.
    pub used: u8,
    /// Capturing moves so far.
    pub captures: u8,
    /// Enemy pieces sent home so far.
    pub sent_home: u8,
    /// The mover bore off its fourth piece (rule 18).
    pub won: bool,
    pub ludii: bool,
}

impl<P: BorrowMut<Position>> Run<P> {
    /// Starts a series of `throws` for the seat to move; applies the discard rule (rule 6).
    /// Returns the run and the number of leading throws discarded.
    #[inline(always)]
    pub fn begin(pos: P, throws: &ThrowSeq, ludii: bool) -> (Run<P>, usize) {
        Run::begin_counted(pos, throws, None, ludii)
    }

    /// [`Run::begin`] given, when known, all of `throws` as a multiset (`all`), which is
    /// then the throws left unless some are discarded.
    #[inline(always)]
    pub fn begin_counted(
        pos: P,
        throws: &ThrowSeq,
        all: Option<Throws>,
        ludii: bool,
    ) -> (Run<P>, usize) {
        let seat = pos.borrow().to_move;
        let side = &pos.borrow().sides[usize::from(seat)];
        let discarded = if side.on_board() {
            0
        } else {
            throws.discard_count()
        };
        let left = match all {
            Some(all) if discarded == 0 => all,
            _ => throws.multiset_from(discarded),
        };
        (
            Run {
                pos,
                seat,
                moved_s: [0; 24],
                moved_t: [0; 24],
                fresh: 0,
                left,
                used: 0,
                captures: 0,
                sent_home: 0,
                won: false,
                ludii,
            },
            discarded,
        )
    }

    /// The position as the series has left it so far.
    pub fn pos(&self) -> &Position {
        self.pos.borrow()
    }

    fn pos_mut(&mut self) -> &mut Position {
        self.pos.borrow_mut()
    }

    fn side(&self) -> &crate::position::Side {
        &self.pos().sides[usize::from(self.seat)]
    }

    fn side_mut(&mut self) -> &mut crate::position::Side {
        let seat = usize::from(self.seat);
        &mut self.pos_mut().sides[seat]
    }

    /// `in` (rule 9).
    pub fn enter(&mut self) -> Result<(), Illegal> {
        if self.won {
            return Err(Illegal::GameOver);
        }
        if self.side().hand == 0 {
            return Err(Illegal::NothingInHand);
        }
        if !self.left.remove(1) {
            return Err(Illegal::NoOneToEnter);
        }
        self.used += 1;
        let side = self.side_mut();
        side.hand -= 1;
        side.singles[0] += 1;
        Ok(())
    }

    /// `off` (rule 16, rule 18).
    pub fn bear_off(&mut self) -> Result<(), Illegal> {
        if self.won {
            return Err(Illegal::GameOver);
        }
        let side = self.side();
        if side.hand > 0 || side.any_on_route() {
            return Err(Illegal::OutsideKeep);
        }
        if side.keep == 0 {
            return Err(Illegal::KeepEmpty);
        }
        if side.keep <= self.fresh {
            return Err(Illegal::KeepAllFresh);
        }
        if !self.left.remove(1) {
            return Err(Illegal::NoOneToBearOff);
        }
        self.used += 1;
        let side = self.side_mut();
        side.keep -= 1;
        side.off += 1;
        if side.off >= 4 {
            self.won = true;
        }
        Ok(())
    }

    /// `Tc5` (rule 15). Two unmoved singles make an unmoved twin; otherwise the twin counts
    /// as moved, and it is made of moved singles first so that an unmoved one stays free.
    pub fn declare(&mut self, square: Square) -> Result<(), Illegal> {
        if self.won {
            return Err(Illegal::GameOver);
        }
        let expected = route_square(self.seat, TWIN_INDEX);
        if square != expected {
            return Err(Illegal::TwinSquare { expected });
        }
        let i = usize::from(TWIN_INDEX);
        let have = self.side().singles[i];
        if have < 2 {
            return Err(Illegal::TwinsNeedTwo { square, have });
        }
        let unmoved = have - self.moved_s[i];
        if unmoved < 2 {
            let from_moved = self.moved_s[i].min(2);
            self.moved_s[i] -= from_moved;
            self.moved_t[i] += 1;
        }
        let side = self.side_mut();
        side.singles[i] -= 2;
        side.twins[i] += 1;
        Ok(())
    }

    /// Checks an advance without playing it; returns the route indices of departure and
    /// arrival.
    #[inline(always)]
    fn check_advance(
        &self,
        from: Square,
        twin: bool,
        throws: &Throws,
    ) -> Result<(u8, u8), Illegal> {
        if self.won {
            return Err(Illegal::GameOver);
        }
        let i = INDEX[usize::from(self.seat & 3)][usize::from(from.index())];
        if i == KEEP_INDEX {
            return Err(Illegal::InKeep);
        }
        let iu = usize::from(i);
        let side = self.side();
        let (count, moved, other) = if twin {
            (side.twins[iu], self.moved_t[iu], side.singles[iu])
        } else {
            (side.singles[iu], self.moved_s[iu], side.twins[iu])
        };
        if count == 0 {
            return Err(Illegal::NoUnit {
                square: from,
                twin,
                other_kind: other > 0,
            });
        }
        // A single may move again under `ludii`; a twin made of moved pieces never may.
        if count <= moved && (twin || !self.ludii) {
            return Err(Illegal::AlreadyMoved { square: from, twin });
        }
        for (s, &c) in throws.counts().iter().enumerate() {
            if self.left.counts()[s] < c {
                return Err(Illegal::ThrowMissing(VALUES[s]));
            }
        }
        let distance = if self.ludii {
            if throws.len() != 1 {
                return Err(Illegal::LudiiOneThrow);
            }
            if twin {
                if throws.count(1) > 0 {
                    return Err(Illegal::LudiiTwinOne);
                }
                throws.sum() / 2
            } else {
                throws.sum()
            }
        } else if twin {
            let d = throws.sum() / 2;
            if d == 0 {
                return Err(Illegal::TwinsTooShort {
                    points: throws.sum(),
                });
            }
            d
        } else {
            throws.sum()
        };
        let to_go = KEEP_INDEX - i;
        if distance > u32::from(to_go) {
            return Err(Illegal::PassesKeep { distance, to_go });
        }
        Ok((i, i + distance as u8))
    }

    /// Plays an advance; returns the arrival square and the enemy pieces sent home.
    #[inline]
    pub fn advance(
        &mut self,
        from: Square,
        twin: bool,
        throws: &Throws,
    ) -> Result<(Square, u8), Illegal> {
        let (i, to) = self.check_advance(from, twin, throws)?;
        let i = usize::from(i);
        self.left.take(throws);
        self.used += throws.len() as u8;
        let ludii = self.ludii;
        // Take a moved single first under `ludii` (it keeps unmoved ones free for twins).
        if twin {
            self.side_mut().twins[i] -= 1;
        } else {
            if ludii && self.moved_s[i] > 0 {
                self.moved_s[i] -= 1;
            }
            self.side_mut().singles[i] -= 1;
        }
        let square = route_square(self.seat, to);
        if to == KEEP_INDEX {
            let n = if twin { 2 } else { 1 };
            self.side_mut().keep += n;
            self.fresh += n;
            return Ok((square, 0));
        }
        let t = usize::from(to);
        if twin {
            self.side_mut().twins[t] += 1;
            // Under `ludii` a twin may advance again: only twins made of moved pieces are held.
            if !ludii {
                self.moved_t[t] += 1;
            }
        } else {
            self.side_mut().singles[t] += 1;
            self.moved_s[t] += 1;
        }
        let captured = self.capture(square, twin);
        if captured > 0 {
            self.captures += 1;
            self.sent_home = self.sent_home.saturating_add(captured);
        }
        Ok((square, captured))
    }

    /// Rule 13 (and its `ludii` reading): sends enemy units on `square` home.
    #[inline(always)]
    fn capture(&mut self, square: Square, twin: bool) -> u8 {
        let (seat, ludii) = (self.seat, self.ludii);
        send_home(self.pos_mut(), seat, square, twin, ludii)
    }

    /// Applies an action (the `to` and `captured` fields of an advance are ignored).
    pub fn apply(&mut self, action: &Action) -> Result<Action, Illegal> {
        match *action {
            Action::Enter => self.enter().map(|_| Action::Enter),
            Action::BearOff => self.bear_off().map(|_| Action::BearOff),
            Action::Twins => {
                let sq = route_square(self.seat, TWIN_INDEX);
                self.declare(sq).map(|_| Action::Twins)
            }
            Action::Advance(a) => {
                let (to, captured) = self.advance(a.from, a.twin, &a.throws)?;
                Ok(Action::Advance(Advance { to, captured, ..a }))
            }
        }
    }

    /// Ends the series: adds owed extra series for the captures, passes the turn when none
    /// is owed, and drops them all when the mover has won (rules 14 and 18).
    pub fn finish(mut self, anticlockwise: bool) -> P {
        let (seat, won, captures) = (self.seat, self.won, self.captures);
        end_series(self.pos_mut(), seat, captures, won, anticlockwise);
        self.pos
    }

    /// True if some action could still use one of the throws left (for `lenient-unused`):
    /// an entry, a bearing off, or an advance of a unit that may still move (including
    /// twins that could still be declared).
    pub fn can_use_any(&self) -> bool {
        if self.won || self.left.is_empty() {
            return false;
        }
        let side = self.side();
        if self.left.count(1) > 0 {
            if side.hand > 0 {
                return true;
            }
            if side.hand == 0 && !side.any_on_route() && side.keep > self.fresh {
                return true;
            }
        }
        // The smallest distance any throws left can move a single / a twin.
        let min_single = VALUES.iter().copied().find(|&v| self.left.count(v) > 0);
        let smallest_even_half = VALUES[1..]
            .iter()
            .copied()
            .find(|&v| self.left.count(v) > 0)
            .map(|v| v / 2);
        let min_twin = if !self.ludii && self.left.count(1) >= 2 {
            Some(1)
        } else {
            smallest_even_half
        };
        for i in 0..24usize {
            let to_go = KEEP_INDEX - i as u8;
            let movable_single =
                side.singles[i] > self.moved_s[i] || (self.ludii && side.singles[i] > 0);
            if movable_single && min_single.is_some_and(|d| d <= to_go) {
                return true;
            }
            let unmoved_pair =
                i == usize::from(TWIN_INDEX) && side.singles[i] - self.moved_s[i] >= 2;
            if (side.twins[i] > self.moved_t[i] || unmoved_pair)
                && min_twin.is_some_and(|d| d <= to_go)
            {
                return true;
            }
        }
        false
    }
}

/// The seat after `seat` in turn order: clockwise S, W, N, E (or S, E, N, W), skipping seats
/// that do not play.
pub(crate) fn next_seat(pos: &Position, seat: u8, anticlockwise: bool) -> u8 {
    let step = if anticlockwise { 3 } else { 1 };
    let mut s = seat;
    for _ in 0..4 {
        s = (s + step) % 4;
        if pos.plays(s) {
            return s;
        }
    }
    seat
}

/// Rule 13 (and its `ludii` reading): the units of other seats on `square` that an arriving
/// unit of `seat` captures go back to their owners' hands. Returns the pieces sent home.
#[inline(always)]
fn send_home(pos: &mut Position, seat: u8, square: Square, twin: bool, ludii: bool) -> u8 {
    if square.is_marked() {
        return 0;
    }
    let mut sent = 0u8;
    let take_singles = !twin || !ludii;
    let mut others = pos.seats & !(1u8 << (seat & 3)) & 0xF;
    while others != 0 {
        let other = others.trailing_zeros() as usize & 3;
        others &= others - 1;
        let k = usize::from(INDEX[other][usize::from(square.index())]);
        debug_assert_eq!(ROUTE[other][k], square.index());
        let side = &mut pos.sides[other];
        if take_singles && side.singles[k] > 0 {
            sent += side.singles[k];
            side.hand += side.singles[k];
            side.singles[k] = 0;
        }
        if twin && side.twins[k] > 0 {
            sent += 2 * side.twins[k];
            side.hand += 2 * side.twins[k];
            side.twins[k] = 0;
        }
    }
    sent
}

/// The end of a series (rules 14 and 18): `captures` capturing moves add owed extra
/// series; the turn passes when none is owed or when the mover has won.
fn end_series(pos: &mut Position, seat: u8, captures: u8, won: bool, anticlockwise: bool) {
    let total = u32::from(pos.owed) + u32::from(captures);
    if won || total == 0 {
        pos.owed = 0;
        pos.to_move = next_seat(pos, seat, anticlockwise);
    } else {
        pos.owed = (total - 1).min(255) as u8;
    }
}

/// What [`replay_series`] counted while playing a series.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Replayed {
    /// Leading throws discarded by rule 6.
    pub discarded: u8,
    /// Usable throws (after the discarded ones) that no action used.
    pub unused: u8,
    /// Enemy pieces sent home (saturating).
    pub sent_home: u8,
    /// Twins declared.
    pub twins: u8,
    /// Pieces borne off.
    pub borne_off: u8,
}

/// Plays a series that is already known to be legal (a resolved turn's) on `pos` for the
/// seat to move, and ends it. Only what changes the position is done: the bookkeeping that
/// legality needs (units already moved, throws left) is skipped, arrivals and captures are
/// worked out again from the position. `captured_on` hears the square of every capturing
/// move. An action that cannot be played at all (a unit that is not there) is skipped, so
/// an illegal series never panics, though it may then end differently from a checked
/// [`Run`].
#[inline]
pub(crate) fn replay_series(
    pos: &mut Position,
    throws: &ThrowSeq,
    actions: &[Action],
    ludii: bool,
    mut captured_on: impl FnMut(Square),
) -> Replayed {
    let seat = pos.to_move;
    let s = usize::from(seat & 3);
    let discarded = if pos.sides[s].on_board() {
        0
    } else {
        throws.discard_count()
    };
    let mut unused = throws.as_slice().len() - discarded;
    let mut done = Replayed {
        discarded: discarded as u8,
        ..Replayed::default()
    };
    let (mut captures, mut won) = (0u8, false);
    for action in actions {
        if won {
            break;
        }
        let side = &mut pos.sides[s];
        match *action {
            Action::Enter if side.hand > 0 => {
                side.hand -= 1;
                side.singles[0] += 1;
                unused = unused.saturating_sub(1);
            }
            Action::BearOff if side.keep > 0 => {
                side.keep -= 1;
                side.off += 1;
                won = side.off >= 4;
                done.borne_off += 1;
                unused = unused.saturating_sub(1);
            }
            Action::Twins if side.singles[usize::from(TWIN_INDEX)] >= 2 => {
                side.singles[usize::from(TWIN_INDEX)] -= 2;
                side.twins[usize::from(TWIN_INDEX)] += 1;
                done.twins += 1;
            }
            Action::Advance(a) => {
                let Some(to) = advance_unchecked(side, seat, &a) else {
                    continue;
                };
                unused = unused.saturating_sub(a.throws.len() as usize);
                if to == Square::KEEP {
                    continue;
                }
                let sent = send_home(pos, seat, to, a.twin, ludii);
                if sent > 0 {
                    captures = captures.saturating_add(1);
                    done.sent_home = done.sent_home.saturating_add(sent);
                    captured_on(to);
                }
            }
            _ => {}
        }
    }
    done.unused = unused as u8;
    end_series(pos, seat, captures, won, ludii);
    done
}

/// Moves the unit of an advance along `seat`'s route on `side` without the rules' checks;
/// returns the square of arrival, or `None` (nothing changed) when there is no such unit
/// or the throws do not take it to a square of the route.
#[inline(always)]
fn advance_unchecked(side: &mut Side, seat: u8, a: &Advance) -> Option<Square> {
    let i = INDEX[usize::from(seat & 3)][usize::from(a.from.index())];
    if i == KEEP_INDEX {
        return None;
    }
    let sum = a.throws.sum();
    let distance = if a.twin { sum / 2 } else { sum };
    if distance == 0 || distance > u32::from(KEEP_INDEX - i) {
        return None;
    }
    let to = i + distance as u8;
    let (from_slot, to_slot) = (usize::from(i), usize::from(to));
    let units = if a.twin {
        &mut side.twins
    } else {
        &mut side.singles
    };
    if units[from_slot] == 0 {
        return None;
    }
    units[from_slot] -= 1;
    if to == KEEP_INDEX {
        side.keep += if a.twin { 2 } else { 1 };
    } else {
        units[to_slot] += 1;
    }
    Some(route_square(seat, to))
}
