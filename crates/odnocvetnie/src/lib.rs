//! odnocvetnie (work in progress)
