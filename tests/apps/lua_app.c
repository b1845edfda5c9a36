/* Lua 5.4 (the interpreter's sources from the lua-src crate, one translation unit, as Lua's own
 * onelua.c builds it) running a fixed script: a large real program for the differential test.
 * Build: clang -I<lua-src>/lua-5.4.7 lua_app.c (scripts/apps.py does it). Output depends only on
 * the script: no clock, no addresses, no hash-order iteration printed. */
#include "lprefix.h"
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LUA_CORE
#define LUA_LIB
#define ltable_c
#define lvm_c
#include "luaconf.h"
#undef LUAI_FUNC
#undef LUAI_DDEC
#undef LUAI_DDEF
#define LUAI_FUNC static
#define LUAI_DDEC(def) /* empty */
#define LUAI_DDEF static

#include "lzio.c"
#include "lctype.c"
#include "lopcodes.c"
#include "lmem.c"
#include "lundump.c"
#include "ldump.c"
#include "lstate.c"
#include "lgc.c"
#include "llex.c"
#include "lcode.c"
#include "lparser.c"
#include "ldebug.c"
#include "lfunc.c"
#include "lobject.c"
#include "ltm.c"
#include "lstring.c"
#include "ltable.c"
#include "ldo.c"
#include "lvm.c"
#include "lapi.c"
#include "lauxlib.c"
#include "lbaselib.c"
#include "lcorolib.c"
#include "ldblib.c"
#include "liolib.c"
#include "lmathlib.c"
#include "loadlib.c"
#include "loslib.c"
#include "lstrlib.c"
#include "ltablib.c"
#include "lutf8lib.c"
#include "linit.c"

static const char *script =
    "local out = {}\n"
    "local function say(...) local t = table.pack(...) for i = 1, t.n do t[i] = tostring(t[i]) end\n"
    "  io.write(table.concat(t, ' '), '\\n') end\n"
    /* numbers: integer and float arithmetic, formatting */
    "local s = 0 for i = 1, 100000 do s = s + i * i % 7 end say('sum', s)\n"
    "say(string.format('%.6f %g %5.2e %x %d', math.pi, 1/3, 12345.678, 255, -42))\n"
    "say(7 // 2, 7 % -3, -7 // 2, 2^10, 10 / 4, math.maxinteger, math.mininteger // -1)\n"
    "say(math.tointeger(3.0), math.floor(-3.5), math.ceil(-3.5), math.fmod(-7, 3), math.abs(-0.0))\n"
    /* strings and patterns */
    "local text = string.rep('the quick brown fox jumps over the lazy dog ', 50)\n"
    "local words = {} for w in text:gmatch('%a+') do words[#words + 1] = w end say('words', #words)\n"
    "say((text:gsub('o', '0', 5)):sub(1, 60), select(2, text:gsub('%s', '')))\n"
    "say(('hello'):upper(), ('%d-%s'):format(3, 'x'), ('abc'):rep(3, ','), ('abcdef'):sub(2, -2))\n"
    "say(string.byte('ABC', 1, -1), string.char(72, 105), ('x=1, y=22'):match('y=(%d+)'))\n"
    "say(utf8.char(72, 228, 8364), utf8.len('h\\xC3\\xA4'), #utf8.char(8364))\n"
    /* tables: sort, concat, insert/remove, ordered traversal */
    "local t = {} for i = 1, 2000 do t[i] = (i * 7919) % 2003 end\n"
    "table.sort(t) say(t[1], t[2], t[1000], t[2000])\n"
    "table.sort(t, function(a, b) return a > b end) say(t[1], t[2000])\n"
    "table.insert(t, 1, -1) table.remove(t, 2) say(#t, t[1], table.concat({1, 2, 3}, '+'))\n"
    "local keys = {} local m = {banana = 3, apple = 1, cherry = 2}\n"
    "for k in pairs(m) do keys[#keys + 1] = k end table.sort(keys) say(table.concat(keys, ','))\n"
    /* closures, varargs, recursion, metatables */
    "local function counter() local c = 0 return function() c = c + 1 return c end end\n"
    "local c1, c2 = counter(), counter() c1() c1() say(c1(), c2())\n"
    "local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end say('fib', fib(24))\n"
    "local V = {} V.__index = V V.__add = function(a, b) return setmetatable({x = a.x + b.x}, V) end\n"
    "V.__tostring = function(v) return 'V(' .. v.x .. ')' end V.__eq = function(a, b) return a.x == b.x end\n"
    "local a, b = setmetatable({x = 1}, V), setmetatable({x = 2}, V) say(tostring(a + b), a + b == b + a)\n"
    "local prox = setmetatable({}, {__index = function(_, k) return k * 2 end}) say(prox[21])\n"
    /* coroutines */
    "local gen = coroutine.wrap(function() for i = 1, 5 do coroutine.yield(i * i) end end)\n"
    "local acc = {} for _ = 1, 5 do acc[#acc + 1] = gen() end say(table.concat(acc, ' '))\n"
    "local co = coroutine.create(function(x) local y = coroutine.yield(x + 1) error('boom ' .. y) end)\n"
    "say(coroutine.resume(co, 1)) say(coroutine.resume(co, 5)) say(coroutine.status(co))\n"
    /* errors */
    "local ok, e = pcall(function() error({code = 7}) end) say(ok, type(e), e.code)\n"
    "say(select(2, pcall(function() local x = nil return x.y end)) ~= nil)\n"
    "say(xpcall(function() error('bad', 0) end, function(m) return 'handled: ' .. m end))\n"
    "say(pcall(string.rep))\n"
    /* load, string.dump round trip, goto, integer division by zero */
    "local f = load('return 1 + ...') say(f(41))\n"
    "local g = load(string.dump(function(x) return x * 3 end)) say(g(14))\n"
    "do local i = 1 ::top:: if i < 4 then i = i + 1 goto top end say('goto', i) end\n"
    "say(pcall(function() return 1 // 0 end))\n"
    /* a small interpreter workload: sieve and string building */
    "local N = 30000 local comp = {} local primes = 0\n"
    "for i = 2, N do if not comp[i] then primes = primes + 1 for j = i * i, N, i do comp[j] = true end end end\n"
    "say('primes', primes)\n"
    "local parts = {} for i = 1, 500 do parts[i] = string.format('%03d', i % 1000) end\n"
    "say(#table.concat(parts), collectgarbage('count') > 0)\n"
    "return 0\n";

int main(void) {
  lua_State *L = luaL_newstate();
  if (L == NULL) return 2;
  luaL_openlibs(L);
  int rc = luaL_dostring(L, script);
  if (rc != LUA_OK) {
    printf("error: %s\n", lua_tostring(L, -1));
  }
  lua_close(L);
  return rc == LUA_OK ? 0 : 1;
}
