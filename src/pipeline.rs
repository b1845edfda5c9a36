//! Pass pipeline (to be written).
