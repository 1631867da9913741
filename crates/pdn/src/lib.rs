//! pdn (work in progress)
#![deny(missing_docs)]
pub mod visitor;
