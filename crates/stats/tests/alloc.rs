//! Counting a game whose openings, players, events, codes and years were seen before
//! allocates nothing: the per-game work of the common path is allocation-free.

#[path = "../benches/common/synth.rs"]
mod synth;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The system allocator, counting allocations made while `COUNTING` is set.
struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn counting_known_games_again_allocates_nothing() {
    let mut rng = synth::Rng::new(5);
    let games: Vec<synth::SynthGame> = (0..500).map(|_| synth::game(&mut rng)).collect();
    let mut stats = stats::Stats::default();
    // First pass: every table learns its keys, every histogram and curve grows.
    for g in &games {
        stats.add(&g.input());
    }
    // Second pass over the same games: only counts change.
    let inputs: Vec<stats::GameInput<'_>> = games.iter().map(|g| g.input()).collect();
    COUNTING.store(true, Ordering::SeqCst);
    for g in &inputs {
        stats.add(g);
    }
    COUNTING.store(false, Ordering::SeqCst);
    assert_eq!(ALLOCATIONS.load(Ordering::SeqCst), 0);
    assert_eq!(stats.games(), 1000);

    // The counter does count: a player never seen before takes a new table entry.
    let mut fresh = inputs[0];
    fresh.game = Some(&synth::TAMA);
    fresh.tags.white = Some("Somebody new");
    COUNTING.store(true, Ordering::SeqCst);
    stats.add(&fresh);
    COUNTING.store(false, Ordering::SeqCst);
    assert!(ALLOCATIONS.load(Ordering::SeqCst) > 0);
}
