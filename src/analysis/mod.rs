//! Control-flow analyses (to be written).
