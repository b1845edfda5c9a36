//! Printer (to be written).
pub fn print_module() {} pub fn print_function() {}
