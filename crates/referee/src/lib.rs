//! referee (work in progress)
