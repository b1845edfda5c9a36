//! Parser for LLVM IR text (to be written).

use std::sync::Arc;

use super::error::ParseError;
use crate::ir::Module;

/// Reads a whole module.
pub fn parse(source: Arc<[u8]>) -> Result<Module, ParseError> {
    let _ = &source;
    Err(ParseError::at(&source, 0, "parser not written yet"))
}
