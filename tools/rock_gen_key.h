//===- rock_gen_key.h - rock-gen's --emit-tuning-key --------------*- C -*-===//
//
// The tuning key: rocmlir-gen's one line (target, compute units, the problem
// as flags, tab-separated), for the problem on rock-gen's command line or
// for a module read from a file or stdin (`rock-gen --emit-tuning-key -`, as
// rocmlir-gen reads one). Private to rock-gen.
//
//===----------------------------------------------------------------------===//
#ifndef ROCK_TOOLS_ROCK_GEN_KEY_H
#define ROCK_TOOLS_ROCK_GEN_KEY_H

#include "rock-c/Attention.h"

#include <stdint.h>

/// Prints the key of `cfg` (borrowed) for target `arch` ("" = cpu) with
/// `numCu` compute units; `lookBack` < 0 when there is no causal band.
void rock__genPrintKey(const RockAttentionConfig *cfg, const char *arch,
                       int64_t numCu, int64_t lookBack);

/// Reads the module in `path` ("-" = stdin) and prints its key: the problem
/// of its rock.harness when it has one (rock-gen's modules), else of its
/// first rock.attention (rocmlir-gen's); the target of its mhal.arch (or
/// rock.arch), else `arch` (--arch, "" = cpu); the compute units of
/// `numCu` when `hasNumCu` (-num_cu), else of the module's rock.num_cu, else
/// of the target. Exits through rock__genDie on an unreadable module.
void rock__genKeyFromModule(const char *path, const char *arch, int64_t numCu,
                            bool hasNumCu);

#endif // ROCK_TOOLS_ROCK_GEN_KEY_H
