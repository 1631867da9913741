//! tama (work in progress)
