//! stats (work in progress)
