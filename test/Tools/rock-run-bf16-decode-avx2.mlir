// bf16 paged GQA decode without the dot products (--no-host-features, or
// AVX2-only code): the fused loops widen each 16-lane slice of a K / V row
// to f32 as the bit shift it is (extui, shli 16, bitcast), not by
// arith.extf, whose x86 lowering for AVX2 in LLVM 22 builds half of each
// slice from scalar loads (vpinsrw). The result still matches the f64
// reference, also in x86-64-v3 code where the host runs it.
// RUN: rock-gen --operation attention -t bf16 -g 2 -num_heads_q 8 -num_heads_kv 2 -seq_len_q 1 -seq_len_k 1040 -head_dim_qk 128 -head_dim_v 128 --paged-attention --page-size 2048 --num-pages 130 -current_seq_len=1037,3 -causal -pv-strict > %t.mlir
// RUN: rock-run --no-host-features %t.mlir | FileCheck %s
// RUN: %if avx512 %{ rock-run --cpu x86-64-v3 %t.mlir | FileCheck %s %}
// RUN: rock-opt %t.mlir --rock-attention-to-gridwise --rock-lower-combine --rock-lower-gridwise-attention | FileCheck %s --check-prefix=IR
// RUN: sed -e 's/^module {/module attributes {rock.vector_bits = 256 : i64} {/' %t.mlir | rock-opt --rock-cpu-pipeline | mlir-translate --mlir-to-llvmir | %llc -O3 -mcpu=x86-64-v3 | FileCheck %s --check-prefix=ASM

// CHECK: [1 1 1]
// IR-NOT: arith.extf {{.*}} : vector<16xbf16> to vector<16xf32>
// IR: arith.bitcast {{.*}} : vector<16xbf16> to vector<16xi16>
// IR: arith.extui {{.*}} : vector<16xi16> to vector<16xi32>
// IR: arith.shli
// IR: arith.bitcast {{.*}} : vector<16xi32> to vector<16xf32>
// IR-NOT: arith.extf {{.*}} : vector<16xbf16> to vector<16xf32>
// ASM-LABEL: rock_attention..omp_par:
// ASM: vpmovzxwd
// ASM: vpslld $16
// ASM-NOT: vpinsrw
// ASM: .Lfunc_end
