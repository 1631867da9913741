//! thaayam (work in progress)
