/* Temporary: verifiers not yet written accept everything. Replaced by
 * verify_<op>.c files. */
#include "Rock/RockVerify.h"

MlirLogicalResult rockAttentionOpVerify(MlirOperation op) { (void)op; return mlirLogicalResultSuccess(); }
MlirLogicalResult rockDerefOpVerify(MlirOperation op) { (void)op; return mlirLogicalResultSuccess(); }
MlirLogicalResult rockTransformOpVerify(MlirOperation op) { (void)op; return mlirLogicalResultSuccess(); }
MlirLogicalResult rockViewLoadOpVerify(MlirOperation op) { (void)op; return mlirLogicalResultSuccess(); }
MlirLogicalResult rockViewStoreOpVerify(MlirOperation op) { (void)op; return mlirLogicalResultSuccess(); }
MlirLogicalResult rockGridwiseAttentionOpVerify(MlirOperation op) { (void)op; return mlirLogicalResultSuccess(); }
MlirLogicalResult rockAttentionCombineOpVerify(MlirOperation op) { (void)op; return mlirLogicalResultSuccess(); }
