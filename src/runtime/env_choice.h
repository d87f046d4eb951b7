// One of a few words from an environment variable (the backends' TRITIUM_*_SHAPE switches).
#pragma once
#include <initializer_list>
#include <string>

namespace tritium::runtime {

/// The index in `choices` of the value of environment variable `name`; 0 (the first choice,
/// the default) when it is unset or empty. Throws std::runtime_error naming `backend`, the
/// variable, the choices and the value for any other value.
int env_choice(const char* name, std::initializer_list<const char*> choices, const std::string& backend);

}  // namespace tritium::runtime
