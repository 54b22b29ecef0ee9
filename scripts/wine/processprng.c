/* A stand-in for Windows 10's bcryptprimitives.dll, for running the Windows
 * build under wine 8 in the tests only (never shipped): Rust's standard
 * library on Windows gets its random bytes (HashMap seeds) from ProcessPrng,
 * which wine 8 lacks; this one asks RtlGenRandom (advapi32's
 * SystemFunction036), which wine has. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk)) {
            return FALSE;
        }
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
