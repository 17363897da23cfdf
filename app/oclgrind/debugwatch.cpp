// The watched element (debugwatch.h).
#include "debugwatch.h"

#include "Context.h"
#include "Kernel.h"
#include "KernelInvocation.h"
#include "Memory.h"

#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>

#include <charconv>
#include <cstdio>
#include <cstring>

namespace clscope::debugplugin {

std::optional<Watch> watchOf(const oclgrind::Context *context, const oclgrind::KernelInvocation *invocation,
                             const nlohmann::json &request, std::string &why)
{
    if (!invocation) {
        why = "watch is set when a kernel begins";
        return std::nullopt;
    }
    const oclgrind::Kernel *kernel = invocation->getKernel();
    const llvm::Function *function = kernel->getFunction();
    const nlohmann::json &arg = request.contains("arg") ? request["arg"] : nlohmann::json();
    std::optional<unsigned> index;
    for (unsigned i = 0; i < kernel->getNumArguments(); ++i) {
        if ((arg.is_string() && kernel->getArgumentName(i) == arg.get<std::string>()) ||
            (arg.is_number_unsigned() && arg.get<unsigned>() == i))
            index = i;
    }
    if (!index || *index >= function->arg_size()) {
        why = "the kernel has no argument " + arg.dump();
        return std::nullopt;
    }
    const llvm::Argument *argument = function->getArg(*index);
    auto *pointer = llvm::dyn_cast<llvm::PointerType>(argument->getType());
    if (!pointer || pointer->isOpaque() || pointer->getAddressSpace() != oclgrind::AddrSpaceGlobal) {
        why = "argument " + kernel->getArgumentName(*index).str() + " is not a global buffer";
        return std::nullopt;
    }
    const llvm::Type *element = pointer->getNonOpaquePointerElementType();
    const std::size_t bytes =
        function->getParent()->getDataLayout().getTypeStoreSize(const_cast<llvm::Type *>(element));
    if (!request.contains("index") || !request["index"].is_number_unsigned() || bytes == 0) {
        why = "watch needs an element index";
        return std::nullopt;
    }
    std::optional<std::size_t> base;
    for (auto v = kernel->values_begin(); v != kernel->values_end(); ++v) {
        if (v->first == argument && v->second.size == sizeof(std::size_t))
            base = v->second.getPointer();
    }
    if (!base) {
        why = "argument " + kernel->getArgumentName(*index).str() + " has no buffer";
        return std::nullopt;
    }
    const std::size_t elementIndex = request["index"].get<std::size_t>();
    Watch watch{*base + elementIndex * bytes, bytes, element,
                kernel->getArgumentName(*index).str() + "[" + std::to_string(elementIndex) + "]"};
    if (!context->getGlobalMemory()->isAddressValid(watch.address, bytes)) {
        why = watch.what + " is outside its buffer";
        return std::nullopt;
    }
    return watch;
}

std::string storedValue(const Watch &watch, const std::uint8_t *data, std::size_t size)
{
    if (!data || size != watch.bytes)
        return {};
    char text[64] = "";
    if (watch.element && watch.element->isFloatTy()) {
        float f = 0;
        std::memcpy(&f, data, sizeof f);
        *std::to_chars(text, text + sizeof text - 1, f).ptr = '\0'; // as the variables show it
    } else if (watch.element && watch.element->isDoubleTy()) {
        double d = 0;
        std::memcpy(&d, data, sizeof d);
        *std::to_chars(text, text + sizeof text - 1, d).ptr = '\0';
    } else if (watch.element && watch.element->isIntegerTy() && size <= 8) {
        std::int64_t v = 0;
        std::memcpy(&v, data, size);
        const unsigned shift = unsigned(64 - 8 * size);
        std::snprintf(text, sizeof text, "%lld", static_cast<long long>((v << shift) >> shift));
    }
    return text;
}

} // namespace clscope::debugplugin
