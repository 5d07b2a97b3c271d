"""Rewrite graph for embedding pipelining

TF 2.21's -tf-embedding-pipelining pipelines the SparseCore embedding
lookups of a TPU training loop with its TensorCore computation, for the ops
the TPU embedding API tags with ``_embedding_pipelining``. tfmlir follows
TF's decision (with TF's default flags) and does not do the rewrite itself:

1. A module holding a ``tf.WriteSummary`` anywhere is left alone
   (``tf_xla_disable_full_embedding_pipelining_with_summaries``, on by
   default), so is a module without tagged ops.
2. The tagged ops, in post-order: ``"forward"`` and ``"backward"`` ones lose
   the attribute; ``"forward_sequential"`` / ``"backward_sequential"`` ones
   keep it and ask for tf-embedding-sequencing instead; any other value fails
   ("embedding op has unknown _embedding_pipelining attribute value <v>.").
3. With a sequential op, the pass is done (the other tags are stripped).
   With backward ops but no forward op it fails ("embedding backwards pass op
   with no forwards pass ops."). All the forward then backward ops must be in
   the region of the first forward op ("embedding ops in two different
   regions") and share its string ``_replication_info`` ("embedding ops with
   different replication info <a> vs <b>").
4. Then TF rewrites the loop; tfmlir fails instead, at the first forward op,
   saying the rewrite is not supported yet (TF's further checks of the loop,
   its TPUReplicateMetadata and owning tf.While, are not made).

A failure leaves the module unchanged. Where TF's process crashes, a tag
that is not a string, the pass fails with a diagnostic.
"""
from mlir import ir

from .analysis.embedding import (BACKWARD, BACKWARD_SEQUENTIAL, EMBEDDING_ATTR, FORWARD,
                                 FORWARD_SEQUENTIAL, not_a_string, pass_ops_problem,
                                 rewrite_not_supported, tagged_ops, unknown_value)
from .names import MODULE, WRITE_SUMMARY
from .framework import Pass, register_pass
from .lib.ir_helpers import ops_named



def has_summaries(module):
    """True if a ``tf.WriteSummary`` is nested in `module` (one native walk)."""
    return bool(ops_named(module, WRITE_SUMMARY))


@register_pass
class EmbeddingPipeliningPass(Pass):
    argument = "tf-embedding-pipelining"
    anchor = MODULE
    dependent_dialects = ("tf",)

    def run_on_operation(self, module):
        module = module.operation
        if has_summaries(module):
            return
        forward, backward, stripped = [], [], []
        sequencing = False
        for op, value in tagged_ops(module):
            if value is None:
                self.fail(not_a_string(op), op)
            if value == FORWARD:
                forward.append(op)
                stripped.append(op)
            elif value == BACKWARD:
                backward.append(op)
                stripped.append(op)
            elif value in (FORWARD_SEQUENTIAL, BACKWARD_SEQUENTIAL):
                sequencing = True
            else:
                self.fail(unknown_value(op, value), op)
        if not sequencing:
            problem = pass_ops_problem(forward, backward)
            if problem is not None:
                self.fail(problem[1], problem[0])
            if forward:
                self.fail(rewrite_not_supported(forward[0], "embedding pipelining"), forward[0])
        for op in stripped:
            del op.attributes[EMBEDDING_ATTR]
