// A C face for the one libphonenumber call the agent needs, so Swift does
// not have to see C++ (libphonenumber's API is C++ with protobuf types).
//
// libphonenumber is opened with dlopen on the first number formatted, not
// linked: with protobuf, ICU and abseil it is about 8 MiB of resident memory
// (libraries, relocations and the parsed metadata), which an agent that has
// shown no number yet does not need to hold. The four functions used are
// looked up by their (Itanium ABI) names; a member function takes `this` as
// its first argument.
#include "relavoi_phone.h"

#include <dlfcn.h>
#include <phonenumbers/phonenumber.pb.h>  // sizeof(PhoneNumber) only: nothing of it is called directly

#include <cstring>
#include <new>
#include <string>

namespace {

using i18n::phonenumbers::PhoneNumber;

// PhoneNumberUtil::PhoneNumberFormat and ErrorType values (phonenumberutil.h).
constexpr int kInternational = 1;
constexpr int kNoParsingError = 0;

struct Library {
    using GetInstance = const void *(*)();
    using Parse = int (*)(const void *util, const std::string &, const std::string &, void *number);
    using IsValid = bool (*)(const void *util, const void *number);
    using Format = void (*)(const void *util, const void *number, int format, std::string *out);
    using Construct = void (*)(void *number, void *arena, bool messageOwned);
    using Destroy = void (*)(void *number);

    const void *util = nullptr;
    Parse parse = nullptr;
    IsValid isValid = nullptr;
    Format format = nullptr;
    Construct construct = nullptr;
    Destroy destroy = nullptr;

    Library() {
        void *handle = dlopen("libphonenumber.so.8", RTLD_NOW | RTLD_LOCAL);
        if (handle == nullptr) return;
        auto getInstance = reinterpret_cast<GetInstance>(
            dlsym(handle, "_ZN4i18n12phonenumbers15PhoneNumberUtil11GetInstanceEv"));
        parse = reinterpret_cast<Parse>(dlsym(
            handle,
            "_ZNK4i18n12phonenumbers15PhoneNumberUtil5ParseERKNSt7__cxx1112basic_stringIcSt11char_"
            "traitsIcESaIcEEES9_PNS0_11PhoneNumberE"));
        isValid = reinterpret_cast<IsValid>(
            dlsym(handle, "_ZNK4i18n12phonenumbers15PhoneNumberUtil13IsValidNumberERKNS0_11PhoneNumberE"));
        format = reinterpret_cast<Format>(dlsym(
            handle,
            "_ZNK4i18n12phonenumbers15PhoneNumberUtil6FormatERKNS0_11PhoneNumberENS1_17PhoneNumberFormatEPNSt7_"
            "_cxx1112basic_stringIcSt11char_traitsIcESaIcEEE"));
        construct = reinterpret_cast<Construct>(
            dlsym(handle, "_ZN4i18n12phonenumbers11PhoneNumberC1EPN6google8protobuf5ArenaEb"));
        destroy = reinterpret_cast<Destroy>(dlsym(handle, "_ZN4i18n12phonenumbers11PhoneNumberD1Ev"));
        if (getInstance == nullptr || parse == nullptr || isValid == nullptr || format == nullptr ||
            construct == nullptr || destroy == nullptr) {
            return;  // another libphonenumber ABI: numbers stay as received
        }
        util = getInstance();
    }

    bool usable() const { return util != nullptr; }
};

const Library &library() {
    // Opened once, on first use (C++ makes the initialization thread-safe); never closed:
    // libprotobuf and ICU cannot be unloaded (dlclose leaves them mapped).
    static const Library *shared = new Library();
    return *shared;
}

}  // namespace

extern "C" int relavoi_phone_library_available(void) { return library().usable() ? 1 : 0; }

extern "C" size_t relavoi_format_international(const char *e164, char *out, size_t cap) {
    if (e164 == nullptr || e164[0] != '+') return 0;
    try {
        const Library &lib = library();
        if (!lib.usable()) return 0;
        alignas(PhoneNumber) unsigned char storage[sizeof(PhoneNumber)];
        lib.construct(storage, nullptr, false);
        struct Guard {
            const Library &lib;
            void *number;
            ~Guard() { lib.destroy(number); }
        } guard{lib, storage};
        // "ZZ": no default region, the number carries its country code.
        if (lib.parse(lib.util, std::string(e164), std::string("ZZ"), storage) != kNoParsingError) return 0;
        if (!lib.isValid(lib.util, storage)) return 0;
        std::string formatted;
        lib.format(lib.util, storage, kInternational, &formatted);
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
