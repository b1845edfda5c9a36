//! Attributes and the small keyword families of declarations: linkage, preemption, visibility,
//! DLL storage, thread-local models, `unnamed_addr`, calling conventions, parameter / return /
//! function attributes and attribute groups.
//!
//! Attributes are kept as text (templates copy them); the reader only has to know where a list
//! ends, parse the types inside type-carrying attributes (`byval(%struct.S)`), and note the one
//! attribute a pass reads: `optnone`. Invariant: every attribute form LLVM 14–19 prints is
//! consumed whole, so the next token is the next grammar element.

use super::cursor::{Cursor, PResult};
use super::types::parse_type;
use super::Host;
use crate::lexer::Tok;

/// Linkage keywords.
pub fn is_linkage(w: &[u8]) -> bool {
    matches!(
        w,
        b"private"
            | b"internal"
            | b"available_externally"
            | b"linkonce"
            | b"weak"
            | b"common"
            | b"appending"
            | b"extern_weak"
            | b"linkonce_odr"
            | b"weak_odr"
            | b"external"
    )
}

/// Calling-convention keywords (besides `cc N`).
pub fn is_cconv(w: &[u8]) -> bool {
    matches!(
        w,
        b"ccc"
            | b"fastcc"
            | b"coldcc"
            | b"cfguard_checkcc"
            | b"x86_stdcallcc"
            | b"x86_fastcallcc"
            | b"x86_thiscallcc"
            | b"x86_vectorcallcc"
            | b"arm_apcscc"
            | b"arm_aapcscc"
            | b"arm_aapcs_vfpcc"
            | b"aarch64_vector_pcs"
            | b"aarch64_sve_vector_pcs"
            | b"aarch64_sme_preservemost_from_x0"
            | b"aarch64_sme_preservemost_from_x1"
            | b"aarch64_sme_preservemost_from_x2"
            | b"msp430_intrcc"
            | b"avr_intrcc"
            | b"avr_signalcc"
            | b"ptx_kernel"
            | b"ptx_device"
            | b"spir_kernel"
            | b"spir_func"
            | b"intel_ocl_bicc"
            | b"x86_64_sysvcc"
            | b"win64cc"
            | b"x86_regcallcc"
            | b"swiftcc"
            | b"swifttailcc"
            | b"anyregcc"
            | b"preserve_mostcc"
            | b"preserve_allcc"
            | b"preserve_nonecc"
            | b"ghccc"
            | b"x86_intrcc"
            | b"hhvmcc"
            | b"hhvm_ccc"
            | b"cxx_fast_tlscc"
            | b"amdgpu_vs"
            | b"amdgpu_ls"
            | b"amdgpu_hs"
            | b"amdgpu_es"
            | b"amdgpu_gs"
            | b"amdgpu_ps"
            | b"amdgpu_cs"
            | b"amdgpu_cs_chain"
            | b"amdgpu_cs_chain_preserve"
            | b"amdgpu_kernel"
            | b"amdgpu_gfx"
            | b"tailcc"
            | b"m68k_rtdcc"
            | b"graalcc"
            | b"riscv_vector_cc"
    )
}

/// Attributes that take no argument and may appear on parameters or return values.
fn is_simple_param_attr(w: &[u8]) -> bool {
    matches!(
        w,
        b"zeroext"
            | b"signext"
            | b"inreg"
            | b"noalias"
            | b"nocapture"
            | b"nofree"
            | b"nest"
            | b"returned"
            | b"nonnull"
            | b"noundef"
            | b"readonly"
            | b"readnone"
            | b"writeonly"
            | b"swiftself"
            | b"swiftasync"
            | b"swifterror"
            | b"immarg"
            | b"allocalign"
            | b"allocptr"
            | b"dead_on_unwind"
            | b"writable"
            | b"noext"
            | b"byval"
            | b"sret"
            | b"inalloca"
            | b"preallocated"
            | b"noundef_or_poison"
            | b"nocreateundeforpoison"
    )
}

/// Attributes that carry a type in parentheses.
fn is_type_attr(w: &[u8]) -> bool {
    matches!(
        w,
        b"byval" | b"byref" | b"sret" | b"inalloca" | b"preallocated" | b"elementtype"
    )
}

/// Attributes that carry other arguments in parentheses.
fn is_paren_attr(w: &[u8]) -> bool {
    matches!(
        w,
        b"dereferenceable"
            | b"dereferenceable_or_null"
            | b"alignstack"
            | b"allocsize"
            | b"vscale_range"
            | b"uwtable"
            | b"memory"
            | b"allockind"
            | b"nofpclass"
            | b"range"
            | b"initializes"
            | b"captures"
            | b"align"
            | b"denormal_fpenv"
    )
}

/// Function attributes without arguments.
fn is_simple_fn_attr(w: &[u8]) -> bool {
    matches!(
        w,
        b"alwaysinline"
            | b"builtin"
            | b"cold"
            | b"convergent"
            | b"coro_only_destroy_when_complete"
            | b"coro_elide_safe"
            | b"disable_sanitizer_instrumentation"
            | b"fn_ret_thunk_extern"
            | b"hot"
            | b"hybrid_patchable"
            | b"inlinehint"
            | b"jumptable"
            | b"minsize"
            | b"mustprogress"
            | b"naked"
            | b"nobuiltin"
            | b"nocallback"
            | b"nocf_check"
            | b"noduplicate"
            | b"nofree"
            | b"noimplicitfloat"
            | b"noinline"
            | b"nomerge"
            | b"nonlazybind"
            | b"noprofile"
            | b"norecurse"
            | b"noredzone"
            | b"noreturn"
            | b"nosanitize_bounds"
            | b"nosanitize_coverage"
            | b"nosync"
            | b"nounwind"
            | b"null_pointer_is_valid"
            | b"optforfuzzing"
            | b"optdebug"
            | b"optnone"
            | b"optsize"
            | b"presplitcoroutine"
            | b"readnone"
            | b"readonly"
            | b"returns_twice"
            | b"safestack"
            | b"sanitize_address"
            | b"sanitize_hwaddress"
            | b"sanitize_memory"
            | b"sanitize_memtag"
            | b"sanitize_numerical_stability"
            | b"sanitize_realtime"
            | b"sanitize_realtime_blocking"
            | b"sanitize_thread"
            | b"sanitize_type"
            | b"shadowcallstack"
            | b"skipprofile"
            | b"speculatable"
            | b"speculative_load_hardening"
            | b"ssp"
            | b"sspreq"
            | b"sspstrong"
            | b"strictfp"
            | b"willreturn"
            | b"writeonly"
            | b"argmemonly"
            | b"inaccessiblememonly"
            | b"inaccessiblemem_or_argmemonly"
            | b"nosanitize"
            | b"no_sanitize_address"
            | b"no_sanitize_hwaddress"
            | b"sanitize_address_dyninit"
            | b"noreturn_returns"
            | b"nodivergencesource"
    )
}

/// Whether the current token starts a parameter or return attribute.
pub fn at_param_attr(c: &Cursor<'_>) -> bool {
    match c.kind() {
        Tok::Str => true,
        Tok::Ident => {
            let w = c.text();
            is_simple_param_attr(w) || is_type_attr(w) || is_paren_attr(w)
        }
        _ => false,
    }
}

/// Skips `( ... )` at the current token if present.
fn skip_parens(c: &mut Cursor<'_>) -> PResult<()> {
    if c.kind() == Tok::LParen {
        c.skip_balanced()?;
    }
    Ok(())
}

/// One attribute with its argument; the current token is its keyword.
fn parse_attr_args<'a, H: Host<'a>>(h: &mut H, w: &[u8]) -> PResult<()> {
    h.c().bump();
    if is_type_attr(w) {
        if h.c().eat(Tok::LParen) {
            let t = parse_type(h)?;
            h.type_root(t);
            h.c().expect(Tok::RParen, "expected ')'")?;
        }
        return Ok(());
    }
    if w == b"range" {
        h.c().expect(Tok::LParen, "expected '('")?;
        parse_type(h)?;
        while h.c().kind() != Tok::RParen {
            if matches!(h.c().kind(), Tok::Eof | Tok::Error) {
                return h.c().err("expected ')'");
            }
            h.c().bump();
        }
        h.c().bump();
        return Ok(());
    }
    if w == b"align" || w == b"alignstack" {
        // `align 8`, `align(8)`, `alignstack=16` (in groups).
        if h.c().kind() == Tok::Int {
            h.c().bump();
            return Ok(());
        }
        if h.c().eat(Tok::Equal) {
            h.c().parse_u64("expected integer")?;
            return Ok(());
        }
        return skip_parens(h.c());
    }
    if h.c().eat(Tok::Equal) {
        h.c().bump();
        return Ok(());
    }
    skip_parens(h.c())
}

/// Function attribute facts passes read (bits of the value [`parse_fn_attrs`] returns and
/// attribute groups record).
pub mod fn_flags {
    /// `optnone`
    pub const OPTNONE: u8 = 1;
    /// `"no-signed-zeros-fp-math"="true"`
    pub const NO_SIGNED_ZEROS: u8 = 2;
}

/// `"kind"` or `"kind"="value"`; returns the [`fn_flags`] it sets.
fn parse_string_attr(c: &mut Cursor<'_>) -> PResult<u8> {
    let k = c.bump();
    let mut flags = 0;
    if c.eat(Tok::Equal) {
        let v = c.expect(Tok::Str, "expected string value")?;
        if c.tok_text(k) == b"\"no-signed-zeros-fp-math\"" && c.tok_text(v) == b"\"true\"" {
            flags |= fn_flags::NO_SIGNED_ZEROS;
        }
    }
    Ok(flags)
}

/// Parameter or return attributes (possibly none); returns their
/// [`llvm_ir::ir::param_flags`].
pub fn parse_param_attrs<'a, H: Host<'a>>(h: &mut H) -> PResult<u8> {
    use llvm_ir::ir::param_flags as pf;
    let mut flags = 0;
    loop {
        match h.c().kind() {
            Tok::Str => {
                parse_string_attr(h.c())?;
            }
            Tok::Ident => {
                let w = h.c().text();
                if is_simple_param_attr(w) || is_type_attr(w) || is_paren_attr(w) {
                    flags |= match w {
                        b"noundef" => pf::NOUNDEF,
                        b"dereferenceable" | b"dereferenceable_or_null" => pf::DEREFERENCEABLE,
                        b"nonnull" => pf::NONNULL,
                        _ => 0,
                    };
                    parse_attr_args(h, w)?;
                } else {
                    return Ok(flags);
                }
            }
            _ => return Ok(flags),
        }
    }
}

/// Function attributes (inline ones and `#N` groups), as after a parameter list or in
/// `attributes #N = { ... }`. Returns the [`fn_flags`] found (through groups too, when known).
pub fn parse_fn_attrs<'a, H: Host<'a>>(h: &mut H, in_group: bool) -> PResult<u8> {
    let mut optnone = 0u8;
    loop {
        match h.c().kind() {
            Tok::Str => optnone |= parse_string_attr(h.c())?,
            Tok::AttrGrpId if !in_group => {
                let t = h.c().bump();
                let id = h.c().id_of(t);
                optnone |= h.attr_group_use(id, t.start as usize)?;
            }
            Tok::Ident => {
                let w = h.c().text();
                if w == b"optnone" {
                    optnone |= fn_flags::OPTNONE;
                }
                if is_simple_fn_attr(w)
                    || is_simple_param_attr(w)
                    || is_type_attr(w)
                    || is_paren_attr(w)
                {
                    parse_attr_args(h, w)?;
                } else if in_group {
                    return h.c().err("unterminated attribute group");
                } else {
                    return Ok(optnone);
                }
            }
            _ => return Ok(optnone),
        }
    }
}

/// Whether the current token is a calling convention; consumes it (and `cc N`'s number).
pub fn eat_cconv(c: &mut Cursor<'_>) -> PResult<bool> {
    if c.kind() != Tok::Ident {
        return Ok(false);
    }
    let w = c.text();
    if w == b"cc" {
        c.bump();
        c.parse_u32("expected integer")?;
        return Ok(true);
    }
    if is_cconv(w) {
        c.bump();
        return Ok(true);
    }
    Ok(false)
}

/// `[linkage] [dso_local] [visibility] [dllstorage] [thread_local(...)] [unnamed_addr]
/// [addrspace(N)] [externally_initialized]` prefixes of globals; returns the linkage keyword
/// (empty when absent).
pub fn parse_global_prefix<'a>(c: &mut Cursor<'a>) -> PResult<&'a [u8]> {
    let mut linkage: &[u8] = b"";
    loop {
        if c.kind() != Tok::Ident {
            return Ok(linkage);
        }
        let w = c.text();
        if is_linkage(w) {
            linkage = w;
            c.bump();
        } else if matches!(
            w,
            b"dso_local"
                | b"dso_preemptable"
                | b"default"
                | b"hidden"
                | b"protected"
                | b"dllimport"
                | b"dllexport"
                | b"unnamed_addr"
                | b"local_unnamed_addr"
                | b"externally_initialized"
        ) {
            c.bump();
        } else if w == b"thread_local" {
            c.bump();
            if c.eat(Tok::LParen) {
                if !matches!(
                    c.text(),
                    b"localdynamic" | b"initialexec" | b"localexec" | b"generaldynamic"
                ) {
                    return c.err("expected localdynamic, initialexec or localexec");
                }
                c.bump();
                c.expect(Tok::RParen, "expected ')' after thread local model")?;
            }
        } else {
            return Ok(linkage);
        }
    }
}
