// A C face for the one libphonenumber call the agent needs, so Swift does
// not have to see C++ (libphonenumber's API is C++ with protobuf types).
#include "relavoi_phone.h"

#include <phonenumbers/phonenumberutil.h>

#include <cstring>
#include <string>

using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

extern "C" size_t relavoi_format_international(const char *e164, char *out, size_t cap) {
    if (e164 == nullptr || e164[0] != '+') return 0;
    try {
        // GetInstance() is a thread-safe singleton; the calls below are const.
        const PhoneNumberUtil *util = PhoneNumberUtil::GetInstance();
        PhoneNumber number;
        // "ZZ": no default region, the number carries its country code.
        if (util->Parse(e164, "ZZ", &number) != PhoneNumberUtil::NO_PARSING_ERROR) return 0;
        if (!util->IsValidNumber(number)) return 0;
        std::string formatted;
        util->Format(number, PhoneNumberUtil::INTERNATIONAL, &formatted);
        if (formatted.empty()) return 0;
        if (out != nullptr && cap > 0) {
            size_t copied = formatted.size() < cap ? formatted.size() : cap - 1;
            std::memcpy(out, formatted.data(), copied);
            out[copied] = '\0';
        }
        return formatted.size();
    } catch (...) {
        // No C++ exception may cross into Swift.
        return 0;
    }
}
