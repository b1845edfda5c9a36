//! The names LLVM 19's reader knows for the DWARF and debug-info enumerations written in
//! specialized metadata (`tag: DW_TAG_member`, `encoding: DW_ATE_signed`, `flags: DIFlagPublic |
//! DIFlagVector`, `DW_OP_deref` in a `!DIExpression`, ...). LLVM's lexer turns every word
//! with one of these prefixes into a token of that kind, and its parser rejects the ones
//! `llvm::dwarf::get*` / `DINode::getFlag` do not know; [`check`] does the same.
//!
//! Invariant: each table is sorted (binary search) and holds the names of LLVM 19's
//! `llvm/BinaryFormat/Dwarf.def` and `llvm/IR/DebugInfoFlags.def` (without their prefix), less
//! the ones whose value is 0 where the parser treats 0 as unknown (`DIFlagZero`,
//! `DISPFlagZero`) and `Largest`, which only exists under `DI_FLAG_LARGEST_NEEDED`. The
//! `DW_OP_LLVM_*` operations are the ones `dwarf::getOperationEncoding` adds by hand.

/// Whether `word` is an enumeration name LLVM's reader accepts where it appears: `None` for a
/// known name or a word without a DWARF prefix, else LLVM's message. `in_expression`: inside
/// `!DIExpression(...)`, where `DW_ATE_*` has another message.
pub fn check(word: &[u8], in_expression: bool) -> Option<String> {
    let ate_msg = if in_expression {
        "invalid DWARF attribute encoding"
    } else {
        "invalid DWARF type attribute encoding"
    };
    let kinds: [(&[u8], &[&str], &str); 10] = [
        (b"DW_TAG_", TAGS, "invalid DWARF tag"),
        (b"DW_ATE_", ATES, ate_msg),
        (
            b"DW_VIRTUALITY_",
            VIRTUALITIES,
            "invalid DWARF virtuality code",
        ),
        (b"DW_LANG_", LANGS, "invalid DWARF language"),
        (b"DW_CC_", CCS, "invalid DWARF calling convention"),
        (b"DW_OP_", OPS, "invalid DWARF op"),
        (b"DW_MACINFO_", MACINFOS, "invalid DWARF macinfo type"),
        (b"CSK_", CHECKSUMS, "invalid checksum kind"),
        (
            b"DISPFlag",
            DISP_FLAGS,
            "invalid subprogram debug info flag",
        ),
        (b"DIFlag", DI_FLAGS, "invalid debug info flag"),
    ];
    for (prefix, table, msg) in kinds {
        if let Some(rest) = word.strip_prefix(prefix) {
            if table.binary_search_by(|n| n.as_bytes().cmp(rest)).is_ok() {
                return None;
            }
            return Some(format!("{msg} '{}'", String::from_utf8_lossy(word)));
        }
    }
    None
}
/// `DW_TAG_*` names, prefix removed.
#[rustfmt::skip]
const TAGS: &[&str] = &[
    "ALTIUM_circ_type", "ALTIUM_mwa_circ_type", "ALTIUM_rev_carry_type", "ALTIUM_rom",
    "APPLE_property", "BORLAND_Delphi_dynamic_array", "BORLAND_Delphi_set",
    "BORLAND_Delphi_string", "BORLAND_Delphi_variant", "BORLAND_property", "GHS_namespace",
    "GHS_template_templ_param", "GHS_using_declaration", "GHS_using_namespace", "GNU_BINCL",
    "GNU_EINCL", "GNU_call_site", "GNU_call_site_parameter", "GNU_formal_parameter_pack",
    "GNU_template_parameter_pack", "GNU_template_template_param", "LLVM_annotation",
    "LLVM_ptrauth_type", "MIPS_loop", "PGI_interface_block", "PGI_kanji_type",
    "SUN_class_template", "SUN_codeflags", "SUN_dtor", "SUN_dtor_info", "SUN_f90_interface",
    "SUN_fortran_vax_structure", "SUN_function_template", "SUN_hi", "SUN_indirect_inheritance",
    "SUN_memop_info", "SUN_omp_child_func", "SUN_rtti_descriptor", "SUN_struct_template",
    "SUN_union_template", "UPC_relaxed", "UPC_shared_type", "UPC_strict_type",
    "access_declaration", "array_type", "atomic_type", "base_type", "call_site",
    "call_site_parameter", "catch_block", "class_template", "class_type", "coarray_type",
    "common_block", "common_inclusion", "compile_unit", "condition", "const_type", "constant",
    "dwarf_procedure", "dynamic_type", "entry_point", "enumeration_type", "enumerator",
    "file_type", "formal_parameter", "format_label", "friend", "function_template",
    "generic_subrange", "immutable_type", "imported_declaration", "imported_module",
    "imported_unit", "inheritance", "inlined_subroutine", "interface_type", "label",
    "lexical_block", "member", "module", "namelist", "namelist_item", "namespace", "null",
    "packed_type", "partial_unit", "pointer_type", "ptr_to_member_type", "reference_type",
    "restrict_type", "rvalue_reference_type", "set_type", "shared_type", "skeleton_unit",
    "string_type", "structure_type", "subprogram", "subrange_type", "subroutine_type",
    "template_alias", "template_type_parameter", "template_value_parameter", "thrown_type",
    "try_block", "type_unit", "typedef", "union_type", "unspecified_parameters",
    "unspecified_type", "variable", "variant", "variant_part", "volatile_type", "with_stmt",
];

/// `DW_ATE_*` names, prefix removed.
#[rustfmt::skip]
const ATES: &[&str] = &[
    "ASCII", "HP_complex_float", "HP_complex_float128", "HP_float128", "HP_floathpintel",
    "HP_imaginary_float128", "HP_imaginary_float90", "UCS", "UTF", "address", "boolean",
    "complex_float", "decimal_float", "edited", "float", "imaginary_float", "numeric_string",
    "packed_decimal", "signed", "signed_char", "signed_fixed", "unsigned", "unsigned_char",
    "unsigned_fixed",
];

/// `DW_VIRTUALITY_*` names, prefix removed.
#[rustfmt::skip]
const VIRTUALITIES: &[&str] = &[
    "none", "pure_virtual", "virtual",
];

/// `DW_LANG_*` names, prefix removed.
#[rustfmt::skip]
const LANGS: &[&str] = &[
    "Ada2005", "Ada2012", "Ada83", "Ada95", "Assembly", "BLISS", "BORLAND_Delphi", "C", "C11",
    "C17", "C89", "C99", "CPP_for_OpenCL", "C_plus_plus", "C_plus_plus_03", "C_plus_plus_11",
    "C_plus_plus_14", "C_plus_plus_17", "C_plus_plus_20", "C_sharp", "Cobol74", "Cobol85",
    "Crystal", "D", "Dylan", "Fortran03", "Fortran08", "Fortran18", "Fortran77", "Fortran90",
    "Fortran95", "GLSL", "GLSL_ES", "GOOGLE_RenderScript", "Go", "HIP", "HLSL", "Haskell", "Hylo",
    "Java", "Julia", "Kotlin", "Mips_Assembler", "Modula2", "Modula3", "Mojo", "Move", "OCaml",
    "ObjC", "ObjC_plus_plus", "OpenCL", "OpenCL_CPP", "PLI", "Pascal83", "Python", "RenderScript",
    "Ruby", "Rust", "SYCL", "Swift", "UPC", "Zig",
];

/// `DW_CC_*` names, prefix removed.
#[rustfmt::skip]
const CCS: &[&str] = &[
    "BORLAND_fastcall", "BORLAND_msfastcall", "BORLAND_msreturn", "BORLAND_pascal",
    "BORLAND_safecall", "BORLAND_stdcall", "BORLAND_thiscall", "GDB_IBM_OpenCL",
    "GNU_borland_fastcall_i386", "GNU_renesas_sh", "LLVM_AAPCS", "LLVM_AAPCS_VFP",
    "LLVM_IntelOclBicc", "LLVM_M68kRTD", "LLVM_OpenCLKernel", "LLVM_PreserveAll",
    "LLVM_PreserveMost", "LLVM_PreserveNone", "LLVM_RISCVVectorCall", "LLVM_SpirFunction",
    "LLVM_Swift", "LLVM_SwiftTail", "LLVM_Win64", "LLVM_X86RegCall", "LLVM_X86_64SysV",
    "LLVM_vectorcall", "nocall", "normal", "pass_by_reference", "pass_by_value", "program",
];

/// `DW_OP_*` names, prefix removed.
#[rustfmt::skip]
const OPS: &[&str] = &[
    "APPLE_uninit", "GNU_addr_index", "GNU_const_index", "GNU_entry_value", "GNU_push_tls_address",
    "HP_fltconst4", "HP_fltconst8", "HP_is_value", "HP_mod_range", "HP_tls", "HP_unmod_range",
    "INTEL_bit_piece", "LLVM_arg", "LLVM_convert", "LLVM_entry_value", "LLVM_extract_bits_sext",
    "LLVM_extract_bits_zext", "LLVM_fragment", "LLVM_implicit_pointer", "LLVM_tag_offset",
    "LLVM_user", "PGI_omp_thread_num", "WASM_location", "WASM_location_int", "abs", "addr",
    "addrx", "and", "bit_piece", "bra", "breg0", "breg1", "breg10", "breg11", "breg12", "breg13",
    "breg14", "breg15", "breg16", "breg17", "breg18", "breg19", "breg2", "breg20", "breg21",
    "breg22", "breg23", "breg24", "breg25", "breg26", "breg27", "breg28", "breg29", "breg3",
    "breg30", "breg31", "breg4", "breg5", "breg6", "breg7", "breg8", "breg9", "bregx", "call2",
    "call4", "call_frame_cfa", "call_ref", "const1s", "const1u", "const2s", "const2u", "const4s",
    "const4u", "const8s", "const8u", "const_type", "consts", "constu", "constx", "convert",
    "deref", "deref_size", "deref_type", "div", "drop", "dup", "entry_value", "eq", "fbreg",
    "form_tls_address", "ge", "gt", "implicit_pointer", "implicit_value", "le", "lit0", "lit1",
    "lit10", "lit11", "lit12", "lit13", "lit14", "lit15", "lit16", "lit17", "lit18", "lit19",
    "lit2", "lit20", "lit21", "lit22", "lit23", "lit24", "lit25", "lit26", "lit27", "lit28",
    "lit29", "lit3", "lit30", "lit31", "lit4", "lit5", "lit6", "lit7", "lit8", "lit9", "lt",
    "minus", "mod", "mul", "ne", "neg", "nop", "not", "or", "over", "pick", "piece", "plus",
    "plus_uconst", "push_object_address", "reg0", "reg1", "reg10", "reg11", "reg12", "reg13",
    "reg14", "reg15", "reg16", "reg17", "reg18", "reg19", "reg2", "reg20", "reg21", "reg22",
    "reg23", "reg24", "reg25", "reg26", "reg27", "reg28", "reg29", "reg3", "reg30", "reg31",
    "reg4", "reg5", "reg6", "reg7", "reg8", "reg9", "regval_type", "regx", "reinterpret", "rot",
    "shl", "shr", "shra", "skip", "stack_value", "swap", "xderef", "xderef_size", "xderef_type",
    "xor",
];

/// `DW_MACINFO_*` names, prefix removed.
#[rustfmt::skip]
const MACINFOS: &[&str] = &[
    "define", "end_file", "start_file", "undef", "vendor_ext",
];

/// `CSK_*` names, prefix removed.
#[rustfmt::skip]
const CHECKSUMS: &[&str] = &[
    "MD5", "SHA1", "SHA256",
];

/// `DIFlag*` names, prefix removed.
#[rustfmt::skip]
const DI_FLAGS: &[&str] = &[
    "AllCallsDescribed", "AppleBlock", "Artificial", "BigEndian", "BitField", "EnumClass",
    "Explicit", "ExportSymbols", "FwdDecl", "IndirectVirtualBase", "IntroducedVirtual",
    "LValueReference", "LittleEndian", "MultipleInheritance", "NoReturn", "NonTrivial",
    "ObjcClassComplete", "ObjectPointer", "Private", "Protected", "Prototyped", "Public",
    "RValueReference", "ReservedBit4", "SingleInheritance", "StaticMember", "Thunk",
    "TypePassByReference", "TypePassByValue", "Vector", "Virtual", "VirtualInheritance",
];

/// `DISPFlag*` names, prefix removed.
#[rustfmt::skip]
const DISP_FLAGS: &[&str] = &[
    "Definition", "Deleted", "Elemental", "LocalToUnit", "MainSubprogram", "ObjCDirect",
    "Optimized", "Pure", "PureVirtual", "Recursive", "Virtual",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_sorted() {
        for t in [
            TAGS,
            ATES,
            VIRTUALITIES,
            LANGS,
            CCS,
            OPS,
            MACINFOS,
            CHECKSUMS,
            DI_FLAGS,
            DISP_FLAGS,
        ] {
            assert!(t.windows(2).all(|w| w[0] < w[1]), "{:?}", &t[..3]);
        }
    }

    #[test]
    fn known_unknown_and_unprefixed() {
        assert_eq!(check(b"DW_TAG_member", false), None);
        assert_eq!(check(b"DW_OP_LLVM_fragment", true), None);
        assert_eq!(check(b"DIFlagPublic", false), None);
        assert_eq!(check(b"DISPFlagDefinition", false), None);
        assert_eq!(check(b"FullDebug", false), None);
        assert_eq!(
            check(b"DW_ATE_unsignedopaque", false).as_deref(),
            Some("invalid DWARF type attribute encoding 'DW_ATE_unsignedopaque'")
        );
        assert_eq!(
            check(b"DW_ATE_signedx", true).as_deref(),
            Some("invalid DWARF attribute encoding 'DW_ATE_signedx'")
        );
        assert_eq!(
            check(b"DIFlagZero", false).as_deref(),
            Some("invalid debug info flag 'DIFlagZero'")
        );
        assert!(check(b"DW_OP_LLVM_nop", true).is_some());
        assert!(check(b"DISPFlagDefinitionx", false).is_some());
    }
}
