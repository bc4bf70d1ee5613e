#ifndef RELAVOI_PHONE_H
#define RELAVOI_PHONE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Formats an E.164 number ("+2348000000001") in libphonenumber's
/// international format ("+234 800 000 0001") into `out`, NUL-terminated.
///
/// Returns the formatted length without the NUL (as snprintf does: when it
/// is `cap` or more, `out` holds a cut copy and a larger buffer is needed),
/// or 0 when `e164` is not a valid number libphonenumber knows (then `out`
/// is left as it was). Thread-safe.
size_t relavoi_format_international(const char *e164, char *out, size_t cap);

/// 1 when libphonenumber could be opened (dlopen, on the first call of
/// either function) and has the functions used; 0 otherwise, and then every
/// number is returned unchanged.
int relavoi_phone_library_available(void);

#ifdef __cplusplus
}
#endif

#endif
