//! SSA verifier (to be written).
