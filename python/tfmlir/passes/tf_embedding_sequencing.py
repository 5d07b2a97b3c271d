"""Rewrite graph for sequential execution of embeddings

TF 2.21's -tf-embedding-sequencing is the sequential fallback of
tf-embedding-pipelining: it splits a TPU training loop around the SparseCore
embedding ops the TPU embedding API tags with ``_embedding_pipelining``.
tfmlir follows TF's decision and does not do the rewrite itself:

1. A module without tagged ops is left alone.
2. The tagged ops, in post-order: ``"forward"`` / ``"forward_sequential"``
   ones are forward ops, ``"backward"`` / ``"backward_sequential"`` ones
   backward ops (both lose the attribute); any other value fails ("embedding
   op has unknown _embedding_pipelining attribute value <v>.").
3. Backward ops without a forward op fail ("embedding backwards pass op with
   no forwards pass ops."). All the forward then backward ops must be in the
   region of the first forward op ("embedding ops in two different regions")
   and share its string ``_replication_info`` ("embedding ops with different
   replication info <a> vs <b>").
4. Then TF rewrites the loop; tfmlir fails instead, at the first forward op,
   saying the rewrite is not supported yet (TF's further checks of the loop
   are not made).

So the pass succeeds only on modules without tagged ops, unchanged. A failure
leaves the module unchanged. Where TF's process crashes, a tag that is not a
string, the pass fails with a diagnostic.
"""
from .analysis.embedding import (BACKWARD, BACKWARD_SEQUENTIAL, FORWARD, FORWARD_SEQUENTIAL,
                                 not_a_string, pass_ops_problem, rewrite_not_supported,
                                 tagged_ops, unknown_value)
from .names import MODULE
from .framework import Pass, register_pass


@register_pass
class EmbeddingSequencingPass(Pass):
    argument = "tf-embedding-sequencing"
    anchor = MODULE
    dependent_dialects = ("tf",)

    def run_on_operation(self, module):
        forward, backward = [], []
        for op, value in tagged_ops(module.operation):
            if value is None:
                self.fail(not_a_string(op), op)
            if value in (FORWARD, FORWARD_SEQUENTIAL):
                forward.append(op)
            elif value in (BACKWARD, BACKWARD_SEQUENTIAL):
                backward.append(op)
            else:
                self.fail(unknown_value(op, value), op)
        problem = pass_ops_problem(forward, backward)
        if problem is not None:
            self.fail(problem[1], problem[0])
        if forward:
            self.fail(rewrite_not_supported(forward[0], "embedding sequencing"), forward[0])
