//! Lexer for LLVM IR text (to be written).
