//===- Assignments.h - Assignments to program variables -------------------===//
//
// The value schemes (scalar-pairs, float-kinds, bounds) observe assignments:
// at the start of the pipeline clang keeps every local, parameter and global
// in memory, so an assignment is a `store` to an alloca or a global variable
// (and, when asked, to a field or array element of one). Compiler temporaries
// (retval, tmp, cleanup slots...) are not program variables.
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_ASSIGNMENTS_H
#define SAMPLER_ASSIGNMENTS_H

#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include <string>
#include <vector>

namespace sampler {

struct Assignment {
  llvm::StoreInst *Store;
  /// The variable: an AllocaInst or a GlobalVariable.
  llvm::Value *Variable;
  /// How a person names what was assigned: `x`, `g`, `s.field`, `a[...]`.
  std::string Name;
  bool IsElement; // a field or array element rather than the whole variable
};

/// Stores in \p F whose value has a type accepted by \p WantType.
std::vector<Assignment>
findAssignments(llvm::Function &F, bool Elements,
                llvm::function_ref<bool(llvm::Type *)> WantType);

/// Whether an alloca is a variable of the program rather than a temporary.
bool isProgramVariable(const llvm::AllocaInst *AI);

/// The source name of a variable: `x` for `%x` and `%x.addr`, `g` for `@g`,
/// `<local N>` when the IR has no names.
std::string variableName(const llvm::Value *V);

} // namespace sampler

#endif
