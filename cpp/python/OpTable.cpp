//===- OpTable.cpp - A native structural view of IR for Python passes -----===//
//
// Python passes ask the same structural questions of every op: its name, its
// parent, which ops define its operands, which ops use its results, the types
// of its values, a few attributes. Through the bindings each answer is a call
// (~1-10 us); an OpTable answers them for every op under a root in one native
// walk, as flat Python lists indexed by the op's position in the walk. The
// pass keeps its logic in Python and materializes ir.Operation objects only
// for the ops it acts on (`op(i)`).
//
// A table is a snapshot: it holds the ops' addresses. Read it, then mutate;
// after the IR changed, build a new one (reading an old table after erasing
// ops it lists is a use after free). It keeps its root's Python object alive.
//
//===----------------------------------------------------------------------===//
#include "PyValues.h"

#include "mlir/Bindings/Python/NanobindAdaptors.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/vector.h>

#include <vector>

using namespace mlir;
using namespace mlir::python::nanobind_adaptors;

namespace tfmlir_python {
namespace {

/// Index of a value's defining op in the table: the op's index, or
/// kBlockArgument / kOutside.
constexpr int kBlockArgument = -1;
constexpr int kOutside = -2;

/// True for "post", false for "pre"; a ValueError for anything else.
bool isPostOrder(const std::string &order) {
  if (order != "pre" && order != "post")
    throw nb::value_error("order is 'pre' or 'post'");
  return order == "post";
}

/// The Block an mlir.ir.Block object holds; a TypeError naming `who` otherwise.
Block *unwrapBlock(nb::handle object, const char *who) {
  std::optional<nb::object> capsule = mlirApiObjectToCapsule(object);
  MlirBlock raw = capsule ? mlirPythonCapsuleToBlock(capsule->ptr()) : MlirBlock{nullptr};
  if (mlirBlockIsNull(raw)) {
    PyErr_Clear();
    throw nb::type_error((std::string(who) + " takes mlir.ir.Block objects").c_str());
  }
  return unwrap(raw);
}

class OpTable {
public:
  OpTable(nb::object rootObject, MlirOperation root, bool postOrder)
      : rootObject(std::move(rootObject)), postOrder(postOrder) {
    add(unwrap(root));
  }

  /// The ops of `block` and everything nested in them (top-level ops have no
  /// parent in the table).
  OpTable(nb::object rootObject, Block *block, bool postOrder)
      : rootObject(std::move(rootObject)), postOrder(postOrder) {
    for (Operation &top : *block)
      add(&top);
  }

  size_t size() const { return ops.size(); }

  int indexOf(Operation *op) const {
    auto it = index.find(op);
    return it == index.end() ? kOutside : it->second;
  }

  MlirOperation op(int i) const { return wrap(ops.at(checked(i))); }

  nb::list names() const {
    llvm::DenseMap<const void *, nb::str> interned;
    nb::list out;
    for (Operation *op : ops) {
      StringRef name = op->getName().getStringRef();
      auto [it, inserted] = interned.try_emplace(name.data());
      if (inserted)
        it->second = safeStr(wrap(name));
      out.append(it->second);
    }
    return out;
  }

  nb::list parents() const {
    nb::list out;
    for (Operation *op : ops) {
      Operation *parent = op->getParentOp();
      out.append(parent ? indexOf(parent) : kOutside);
    }
    return out;
  }

  /// Post-order only: the index of the first op of each op's subtree (its
  /// descendants are the ops in [first, i)).
  nb::list firstDescendants() const {
    if (!postOrder)
      throw nb::value_error("first_descendants needs a post-order table");
    std::vector<int> first(ops.size());
    for (size_t i = 0; i < ops.size(); ++i)
      first[i] = static_cast<int>(i);
    for (size_t i = 0; i < ops.size(); ++i)
      if (Operation *parent = ops[i]->getParentOp()) {
        int p = indexOf(parent);
        if (p >= 0 && first[i] < first[p])
          first[p] = first[i];
      }
    nb::list out;
    for (int f : first)
      out.append(f);
    return out;
  }

  /// The direct children of op i (the ops of its regions' blocks), in order.
  nb::list children(int i) const {
    nb::list out;
    for (Region &region : ops.at(checked(i))->getRegions())
      for (Block &block : region)
        for (Operation &child : block)
          out.append(indexOf(&child));
    return out;
  }

  /// Pre-order only: for op i, the end of its subtree (its descendants are the
  /// ops in (i, end)).
  nb::list subtreeEnds() const {
    if (postOrder)
      throw nb::value_error("subtree_ends needs a pre-order table");
    std::vector<int> end(ops.size());
    for (size_t i = ops.size(); i-- > 0;) {
      if (!end[i])
        end[i] = static_cast<int>(i) + 1;
      if (Operation *parent = ops[i]->getParentOp()) {
        int p = indexOf(parent);
        if (p >= 0 && end[p] < end[i])
          end[p] = end[i];
      }
    }
    nb::list out;
    for (int e : end)
      out.append(e);
    return out;
  }

  /// For op i's children (in order): the positions, among those children, of
  /// the children whose results are used anywhere in the child's subtree (its
  /// operands and those of every op nested in it), with repeats. The def-use
  /// edges of one block level, e.g. between the islands of a graph.
  nb::list childProducers(int i) const {
    Operation *parent = ops.at(checked(i));
    std::vector<Operation *> children;
    llvm::DenseMap<Operation *, int> position;
    for (Region &region : parent->getRegions())
      for (Block &block : region)
        for (Operation &child : block) {
          position.try_emplace(&child, static_cast<int>(children.size()));
          children.push_back(&child);
        }
    nb::list out;
    for (Operation *child : children) {
      std::vector<int> found;
      child->walk([&](Operation *op) {
        for (Value operand : op->getOperands())
          if (Operation *def = operand.getDefiningOp(); def && def->getParentOp() == parent) {
            auto it = position.find(def);
            if (it != position.end())
              found.push_back(it->second);
          }
      });
      nb::list producers;
      for (int f : found)
        producers.append(f);
      out.append(producers);
    }
    return out;
  }

  nb::list numOperands() const {
    nb::list out;
    for (Operation *op : ops)
      out.append(static_cast<int>(op->getNumOperands()));
    return out;
  }

  /// The ir.Operation objects of the ops at `indices`.
  nb::list opsAt(const std::vector<int> &indices) const {
    nb::list out;
    for (int i : indices)
      out.append(nb::cast(wrap(ops.at(checked(i)))));
    return out;
  }

  nb::list numRegions() const {
    nb::list out;
    for (Operation *op : ops)
      out.append(static_cast<int>(op->getNumRegions()));
    return out;
  }

  nb::list numResults() const {
    nb::list out;
    for (Operation *op : ops)
      out.append(static_cast<int>(op->getNumResults()));
    return out;
  }

  /// Per op, the table index of each operand's defining op (kBlockArgument for
  /// block arguments, kOutside for ops not under the root).
  nb::list operandDefs() const {
    nb::list out;
    for (Operation *op : ops) {
      nb::list defs;
      for (Value operand : op->getOperands()) {
        Operation *def = operand.getDefiningOp();
        defs.append(def ? indexOf(def) : kBlockArgument);
      }
      out.append(defs);
    }
    return out;
  }

  /// Per op, the table index of the owner of every use of its results, in
  /// result order (kOutside for owners not under the root), with repeats.
  nb::list users() const {
    nb::list out;
    for (Operation *op : ops) {
      nb::list found;
      for (Value result : op->getResults())
        for (OpOperand &use : result.getUses())
          found.append(indexOf(use.getOwner()));
      out.append(found);
    }
    return out;
  }

  /// Per op, the type ids of its operands (or `results`); `types()` lists the
  /// distinct types (each converted once).
  nb::list typeIdLists(bool results) {
    nb::list out;
    for (Operation *op : ops) {
      nb::list ids;
      for (Type type : results ? TypeRange(op->getResultTypes()) : TypeRange(op->getOperandTypes()))
        ids.append(typeId(type));
      out.append(ids);
    }
    return out;
  }

  /// The indices of the ops with an operand or result whose type is one of
  /// `wanted`, or a shaped type whose element type is.
  nb::list opsWithElementTypes(const std::vector<MlirType> &wanted) const {
    llvm::DenseSet<Type> targets;
    for (MlirType type : wanted)
      targets.insert(unwrap(type));
    llvm::DenseMap<Type, bool> matches;
    auto hit = [&](Type type) {
      auto [it, inserted] = matches.try_emplace(type, false);
      if (inserted) {
        Type element = type;
        if (auto shaped = llvm::dyn_cast<ShapedType>(type))
          element = shaped.getElementType();
        it->second = targets.contains(type) || targets.contains(element);
      }
      return it->second;
    };
    nb::list out;
    for (size_t i = 0; i < ops.size(); ++i)
      if (llvm::any_of(ops[i]->getOperandTypes(), hit) ||
          llvm::any_of(ops[i]->getResultTypes(), hit))
        out.append(static_cast<int>(i));
    return out;
  }

  nb::list types() const {
    nb::list out;
    for (Type type : typeList)
      out.append(typeToPython(wrap(type)));
    return out;
  }

  /// Per op, attribute `name` (inherent or discardable): None where the op has
  /// none, else the attribute (each distinct attribute converted once); with
  /// `stringsAsBytes`, a string attribute as its bytes.
  nb::list perOpAttribute(const std::string &name, bool stringsAsBytes) const {
    llvm::DenseMap<const void *, nb::object> converted;
    nb::list out;
    for (Operation *op : ops) {
      Attribute attr = op->getAttr(name);
      if (!attr) {
        out.append(nb::none());
        continue;
      }
      auto [it, inserted] = converted.try_emplace(attr.getAsOpaquePointer());
      if (inserted) {
        auto str = stringsAsBytes ? llvm::dyn_cast<StringAttr>(attr) : StringAttr();
        it->second = str ? nb::bytes(str.getValue().data(), str.getValue().size())
                         : attributeToPython(wrap(attr));
      }
      out.append(it->second);
    }
    return out;
  }

  /// Per op, whether a symbol reference is nested anywhere in its attributes
  /// (inherent and discardable): MLIR's definition of a symbol use.
  nb::list symbolReferences() const {
    AttrTypeWalker walker;  // caches: each uniqued attribute is looked into once
    walker.addWalk([](Attribute attr) {
      return llvm::isa<SymbolRefAttr>(attr) ? WalkResult::interrupt() : WalkResult::advance();
    });
    nb::list out;
    for (Operation *op : ops) {
      bool found = walker.walk(op->getRawDictionaryAttrs()).wasInterrupted();
      if (!found && op->getPropertiesStorageSize())
        if (Attribute properties = op->getPropertiesAsAttribute())
          found = walker.walk(properties).wasInterrupted();
      out.append(found);
    }
    return out;
  }

  /// The indices of the ops named `name`, in table order.
  /// Removes attribute `name` from the ops at `indices` (every op when None); the count of ops
  /// that had it.
  int dropAttribute(const std::string &name, std::optional<std::vector<int>> indices) {
    int dropped = 0;
    auto drop = [&](Operation *op) {
      if (op->removeAttr(name))
        ++dropped;
    };
    if (indices) {
      for (int i : *indices)
        drop(ops.at(checked(i)));
    } else {
      for (Operation *op : ops)
        drop(op);
    }
    return dropped;
  }

  nb::list named(const std::string &name) const {
    nb::list out;
    for (size_t i = 0; i < ops.size(); ++i)
      if (ops[i]->getName().getStringRef() == name)
        out.append(static_cast<int>(i));
    return out;
  }

private:
  /// Appends `root` and the ops nested in it, in the table's walk order.
  void add(Operation *root) {
    auto append = [&](Operation *op) {
      index.try_emplace(op, static_cast<int>(ops.size()));
      ops.push_back(op);
    };
    if (postOrder)
      root->walk<WalkOrder::PostOrder>(append);
    else
      root->walk<WalkOrder::PreOrder>(append);
  }

  int checked(int i) const {
    if (i < 0 || static_cast<size_t>(i) >= ops.size())
      throw nb::index_error("op index out of range");
    return i;
  }

  int typeId(Type type) {
    auto [it, inserted] = typeIds.try_emplace(type, static_cast<int>(typeList.size()));
    if (inserted)
      typeList.push_back(type);
    return it->second;
  }

  nb::object rootObject;  // keeps the IR alive
  bool postOrder;
  std::vector<Operation *> ops;
  llvm::DenseMap<Operation *, int> index;
  llvm::DenseMap<Type, int> typeIds;
  std::vector<Type> typeList;
};

/// The ops under `root` (itself included) for which `wanted` holds, in `order`
/// ("post" or "pre") of one native walk, as Python objects.
template <typename Predicate>
nb::list opsWhere(Operation *root, const std::string &order, Predicate wanted) {
  bool postOrder = isPostOrder(order);
  std::vector<Operation *> found;
  auto visit = [&](Operation *op) {
    if (wanted(op))
      found.push_back(op);
  };
  if (postOrder)
    root->walk<WalkOrder::PostOrder>(visit);
  else
    root->walk<WalkOrder::PreOrder>(visit);
  nb::list out;
  for (Operation *op : found)
    out.append(nb::cast(wrap(op)));
  return out;
}

} // namespace

void registerOpTable(nb::module_ &m) {
  m.def(
      "wrapped_single_op",
      [](MlirOperation wrapper) -> std::optional<MlirOperation> {
        // TF's IslandOp::WrapsSingleOp for any op of that shape: one region, one block of
        // two ops, the second (the terminator) using exactly the first's results in order.
        Operation *op = unwrap(wrapper);
        if (op->getNumRegions() != 1 || !op->getRegion(0).hasOneBlock())
          return std::nullopt;
        Block &block = op->getRegion(0).front();
        if (block.empty() || std::next(block.begin()) == block.end() ||
            std::next(block.begin(), 2) != block.end())
          return std::nullopt;
        Operation &inner = block.front();
        Operation &terminator = block.back();
        if (terminator.getNumOperands() != inner.getNumResults())
          return std::nullopt;
        for (auto [operand, result] : llvm::zip(terminator.getOperands(), inner.getResults()))
          if (operand != result)
            return std::nullopt;
        return wrap(&inner);
      },
      nb::arg("operation"),
      "The op `operation` wraps (TF's IslandOp::WrapsSingleOp: one region, one block of two "
      "ops, the second using exactly the first's results in order), or None.");

  m.def(
      "ops_named",
      [](MlirOperation root, const std::vector<std::string> &names, const std::string &order) {
        llvm::SmallVector<StringRef, 4> wanted(names.begin(), names.end());
        return opsWhere(unwrap(root), order, [&](Operation *op) {
          return llvm::is_contained(wanted, op->getName().getStringRef());
        });
      },
      nb::arg("root"), nb::arg("names"), nb::arg("order") = "post",
      "The ops under `root` (itself included) named one of `names`, in MLIR's post-order "
      "(or 'pre') walk order: one native walk; only the ops found become Python objects.");

  m.def(
      "symbol_reference_roots",
      [](MlirOperation root, bool skipNestedModules) {
        // MLIR's symbol-use walk: every SymbolRefAttr anywhere in an op's attributes
        // (inherent and discardable, through arrays, dictionaries and attributes made of
        // attributes), its root name once per op; nested references are not roots.
        llvm::DenseMap<Attribute, llvm::SmallVector<StringAttr, 2>> cache;
        auto rootsOf = [&](Attribute attrs) -> const llvm::SmallVector<StringAttr, 2> & {
          auto it = cache.find(attrs);
          if (it != cache.end())
            return it->second;
          llvm::SmallVector<StringAttr, 2> names;
          AttrTypeWalker walker;
          walker.addWalk([&](SymbolRefAttr ref) -> WalkResult {
            StringAttr name = ref.getRootReference();
            if (!llvm::is_contained(names, name))
              names.push_back(name);
            return WalkResult::skip();
          });
          walker.walk(attrs);
          return cache.try_emplace(attrs, std::move(names)).first->second;
        };
        std::vector<std::pair<Operation *, llvm::SmallVector<StringAttr, 2>>> found;
        Operation *top = unwrap(root);
        top->walk<WalkOrder::PreOrder>([&](Operation *op) -> WalkResult {
          if (skipNestedModules && op != top && op->getName().getStringRef() == "builtin.module")
            return WalkResult::skip();
          const auto &names = rootsOf(op->getAttrDictionary());
          if (!names.empty())
            found.emplace_back(op, names);
          return WalkResult::advance();
        });
        nb::list out;
        for (auto &[op, names] : found) {
          nb::list roots;
          for (StringAttr name : names)
            roots.append(safeStr(wrap(name.getValue())));
          out.append(nb::make_tuple(nb::cast(wrap(op)), roots));
        }
        return out;
      },
      nb::arg("root"), nb::arg("skip_nested_modules") = true,
      "[(op, [root names])] of the ops under `root` (itself included, pre-order) whose "
      "attributes hold symbol references, each root name once per op, as MLIR's symbol "
      "tables count uses; nested modules are not entered (their ops resolve their own "
      "references) unless skip_nested_modules is False.");

  m.def(
      "first_use_blocking_erase",
      [](const std::vector<MlirOperation> &wrapped) -> nb::object {
        // Erasing the ops in order: op k may be used by itself, by ops nested in it and by
        // ops erased before it (positions < k, or nested in those); any other use blocks.
        llvm::DenseMap<Operation *, size_t> position;
        for (size_t k = 0; k < wrapped.size(); ++k)
          position.try_emplace(unwrap(wrapped[k]), k);
        for (size_t k = 0; k < wrapped.size(); ++k) {
          Operation *op = unwrap(wrapped[k]);
          for (OpResult result : op->getResults())
            for (OpOperand &use : result.getUses()) {
              Operation *user = use.getOwner();
              bool gone = false;
              for (Operation *at = user; at && !gone; at = at->getParentOp()) {
                auto it = position.find(at);
                gone = at == op || (it != position.end() && it->second < k);
              }
              if (!gone)
                return nb::make_tuple(static_cast<int>(k), result.getResultNumber(),
                                      nb::cast(wrap(user)));
            }
        }
        return nb::none();
      },
      nb::arg("operations"),
      "For erasing `operations` in order (users first): (position, result number, user) of "
      "the first result use that would still exist when its op is erased, or None.");

  m.def(
      "move_block_ops",
      [](nb::handle source, nb::handle dest) {
        Block *from = unwrapBlock(source, "move_block_ops"), *to = unwrapBlock(dest, "move_block_ops");
        if (from == to)
          throw nb::value_error("move_block_ops: the blocks are the same");
        to->getOperations().splice(to->end(), from->getOperations());
      },
      nb::arg("source"), nb::arg("dest"),
      "Moves every op of block `source` (in order) to the end of block `dest`, in one splice.");

  m.def(
      "escaping_results",
      [](const std::vector<MlirOperation> &wrapped) {
        // The ops of one block; a result escapes when an op not among them (nor nested in one
        // of them) uses it.
        llvm::DenseSet<Operation *> group;
        for (MlirOperation op : wrapped)
          group.insert(unwrap(op));
        nb::list out;
        for (MlirOperation w : wrapped) {
          Operation *op = unwrap(w);
          Block *block = op->getBlock();
          for (OpResult result : op->getResults())
            for (Operation *user : result.getUsers()) {
              Operation *top = block ? block->findAncestorOpInBlock(*user) : nullptr;
              if (!top || !group.contains(top)) {
                out.append(nb::cast(wrap(Value(result))));
                break;
              }
            }
        }
        return out;
      },
      nb::arg("operations"),
      "The results of `operations` (ops of one block), in op and result order, that an op "
      "outside them (not one of them, nor nested in one) uses.");

  m.def(
      "replace_uses_outside",
      [](const std::vector<MlirValue> &olds, const std::vector<MlirValue> &news, MlirOperation keep) {
        if (olds.size() != news.size())
          throw nb::value_error("replace_uses_outside: as many new values as old ones");
        Operation *scope = unwrap(keep);
        // All checked before any use changes: an error leaves the IR as it was.
        for (size_t k = 0; k < olds.size(); ++k)
          if (unwrap(olds[k]).getType() != unwrap(news[k]).getType())
            throw nb::value_error("replace_uses_outside: a new value of another type");
        for (size_t k = 0; k < olds.size(); ++k)
          unwrap(olds[k]).replaceUsesWithIf(unwrap(news[k]), [&](OpOperand &use) {
            return !scope->isAncestor(use.getOwner());
          });
      },
      nb::arg("old_values"), nb::arg("new_values"), nb::arg("operation"),
      "Replaces every use of old_values[k] by new_values[k], except the uses by `operation` "
      "and the ops nested in it.");

  m.def(
      "move_ops_before",
      [](const std::vector<MlirOperation> &wrapped, MlirOperation anchorOp) {
        Operation *anchor = unwrap(anchorOp);
        Block *to = anchor->getBlock();
        if (!to)
          throw nb::value_error("move_ops_before: the anchor is not in a block");
        for (MlirOperation w : wrapped) {
          Operation *op = unwrap(w);
          if (op == anchor || op->isAncestor(anchor))
            throw nb::value_error("move_ops_before: an op cannot move before itself or into "
                                  "its own region");
        }
        for (MlirOperation w : wrapped) {
          Operation *op = unwrap(w);
          if (Block *from = op->getBlock())
            to->getOperations().splice(anchor->getIterator(), from->getOperations(),
                                       op->getIterator());
          else
            to->getOperations().insert(anchor->getIterator(), op);
        }
      },
      nb::arg("operations"), nb::arg("anchor"),
      "Moves `operations` (in order) right before `anchor`, each spliced from wherever it is.");

  m.def(
      "move_ops_to_block",
      [](const std::vector<MlirOperation> &wrapped, nb::handle dest) {
        Block *to = unwrapBlock(dest, "move_ops_to_block");
        Operation *destOp = to->getParentOp();
        for (MlirOperation w : wrapped)
          if (destOp && unwrap(w)->isAncestor(destOp))
            throw nb::value_error("move_ops_to_block: an op cannot move into its own region");
        for (MlirOperation w : wrapped) {
          Operation *op = unwrap(w);
          if (Block *from = op->getBlock())
            to->getOperations().splice(to->end(), from->getOperations(), op->getIterator());
          else
            to->push_back(op);
        }
      },
      nb::arg("operations"), nb::arg("block"),
      "Moves `operations` (in order) to the end of `block`, each spliced from wherever it is.");

  m.def(
      "captured_uses",
      [](const std::vector<nb::handle> &blocks, const std::vector<MlirOperation> &roots) {
        // The scope: the ops of `blocks` and the ops `roots`, each with everything nested in
        // it, walked in post-order. A value is defined inside when an op of the scope defines
        // it or it is an argument of a block of `blocks` or of a region of an op of the scope.
        std::vector<Operation *> order;
        llvm::DenseSet<Operation *> inside;
        llvm::DenseSet<Block *> rootBlocks;
        auto add = [&](Operation *op) {
          order.push_back(op);
          inside.insert(op);
        };
        for (nb::handle object : blocks) {
          Block *block = unwrapBlock(object, "captured_uses");
          rootBlocks.insert(block);
          for (Operation &op : *block)
            op.walk<WalkOrder::PostOrder>(add);
        }
        for (MlirOperation root : roots)
          unwrap(root)->walk<WalkOrder::PostOrder>(add);
        nb::list values, uses;
        llvm::DenseMap<const void *, nb::object> valueObjects;
        for (Operation *op : order) {
          nb::object opObject;
          for (OpOperand &operand : op->getOpOperands()) {
            Value value = operand.get();
            bool defined;
            if (auto result = llvm::dyn_cast<OpResult>(value)) {
              defined = inside.contains(result.getOwner());
            } else {
              Block *owner = llvm::cast<BlockArgument>(value).getOwner();
              Operation *parent = owner->getParentOp();
              defined = rootBlocks.contains(owner) || (parent && inside.contains(parent));
            }
            if (defined)
              continue;
            auto [it, inserted] = valueObjects.try_emplace(value.getAsOpaquePointer());
            if (inserted) {
              it->second = nb::cast(wrap(value));
              values.append(it->second);
            }
            if (!opObject.is_valid())
              opObject = nb::cast(wrap(op));
            uses.append(nb::make_tuple(opObject, operand.getOperandNumber(), it->second));
          }
        }
        return nb::make_tuple(values, uses);
      },
      nb::arg("blocks"), nb::arg("operations"),
      "(values, uses) of the values the scope (the ops of `blocks` and `operations`, nested "
      "ops included) uses but does not define: the values in first-use order of a post-order "
      "walk, each use as (op, operand index, value).");

  m.def(
      "ops_with_attributes",
      [](MlirOperation root, const std::vector<std::string> &names, const std::string &order) {
        llvm::SmallVector<StringRef, 4> wanted(names.begin(), names.end());
        return opsWhere(unwrap(root), order, [&](Operation *op) {
          return llvm::any_of(wanted, [&](StringRef w) { return bool(op->getAttr(w)); });
        });
      },
      nb::arg("root"), nb::arg("names"), nb::arg("order") = "post",
      "The ops under `root` (itself included) that carry at least one of the attributes "
      "`names` (inherent or discardable), in MLIR's post-order (or 'pre') walk order: one "
      "native walk; only the ops found become Python objects.");

  nb::class_<OpTable>(m, "OpTable",
                      "Every op under (and including) a root in one native walk, with its "
                      "structure as flat lists indexed by the op's position in the walk. "
                      "A snapshot: build it, read it, then change the IR (an old table must "
                      "not be read after ops it lists were erased).")
      .def(
          "__init__",
          [](OpTable *self, nb::handle root, const std::string &order) {
            bool postOrder = isPostOrder(order);
            std::optional<nb::object> capsule = mlirApiObjectToCapsule(root);
            if (!capsule)
              throw nb::type_error("OpTable takes an mlir.ir.Operation or OpView");
            MlirOperation op = mlirPythonCapsuleToOperation(capsule->ptr());
            if (mlirOperationIsNull(op)) {
              PyErr_Clear();
              throw nb::type_error("OpTable takes an mlir.ir.Operation or OpView");
            }
            new (self) OpTable(nb::borrow<nb::object>(root), op, postOrder);
          },
          nb::arg("root"), nb::arg("order") = "post",
          "Walks `root` (an Operation or OpView) in 'post' (MLIR's default) or 'pre' order.")
      .def_static(
          "of_block",
          [](nb::handle block, const std::string &order) {
            bool postOrder = isPostOrder(order);
            return new OpTable(nb::borrow<nb::object>(block), unwrapBlock(block, "OpTable.of_block"),
                               postOrder);
          },
          nb::arg("block"), nb::arg("order") = "post", nb::rv_policy::take_ownership,
          "A table of the ops of `block` and everything nested in them, walked op by op in "
          "'post' or 'pre' order; the block's own ops have parent -2 (outside the table).")
      .def("__len__", &OpTable::size)
      .def("op", &OpTable::op, nb::arg("index"), "The ir.Operation at `index`.")
      .def(
          "index",
          [](const OpTable &self, MlirOperation op) { return self.indexOf(unwrap(op)); },
          nb::arg("operation"), "The index of `operation`, or -2 if the table does not hold it.")
      .def("names", &OpTable::names, "Each op's name (str).")
      .def("parents", &OpTable::parents,
           "Each op's parent op index (-2: the root's parent, outside the table).")
      .def("first_descendants", &OpTable::firstDescendants,
           "Post-order tables: for op i, the first index of its subtree (its descendants "
           "are the ops in [first, i)).")
      .def("children", &OpTable::children, nb::arg("index"),
           "The indices of op `index`'s direct children (the ops of its regions), in order.")
      .def("subtree_ends", &OpTable::subtreeEnds,
           "Pre-order tables: for op i, the end of its subtree (its descendants are the ops "
           "in (i, end)).")
      .def("child_producers", &OpTable::childProducers, nb::arg("index"),
           "For each child of op `index` (in order): the positions among those children of "
           "the children whose results are used in the child's subtree (with repeats): the "
           "def-use edges of one block level, such as between the islands of a graph.")
      .def("ops", &OpTable::opsAt, nb::arg("indices"), "The ir.Operation objects at `indices`.")
      .def("num_operands", &OpTable::numOperands)
      .def("num_regions", &OpTable::numRegions)
      .def("num_results", &OpTable::numResults)
      .def("operand_defs", &OpTable::operandDefs,
           "Per op, the index of each operand's defining op (-1: a block argument; -2: an "
           "op outside the table).")
      .def("users", &OpTable::users,
           "Per op, the index of the owner of every use of its results (result order, "
           "with repeats; -2: outside the table).")
      .def(
          "operand_types", [](OpTable &self) { return self.typeIdLists(false); },
           "Per op, the ids of its operand types (indices into types()).")
      .def(
          "result_types", [](OpTable &self) { return self.typeIdLists(true); },
           "Per op, the ids of its result types (indices into types()).")
      .def("ops_with_element_types", &OpTable::opsWithElementTypes, nb::arg("types"),
           "The indices of the ops with an operand or result of one of `types` (a list of "
           "ir.Type), or of a shaped type of such elements, in table order.")
      .def("types", &OpTable::types,
           "The distinct types seen by operand_types()/result_types() so far, by id.")
      .def(
          "strings",
          [](const OpTable &self, const std::string &name) { return self.perOpAttribute(name, true); },
          nb::arg("name"),
           "Per op, attribute `name`: None if absent, bytes for a string attribute, "
           "else the attribute object.")
      .def(
          "attributes",
          [](const OpTable &self, const std::string &name) {
            return self.perOpAttribute(name, false);
          },
          nb::arg("name"),
           "Per op, attribute `name` (None if absent).")
      .def("symbol_references", &OpTable::symbolReferences,
           "Per op, whether a symbol reference is nested anywhere in its attributes "
           "(MLIR's definition of a symbol use).")
      .def("drop_attribute", &OpTable::dropAttribute, nb::arg("name"),
           nb::arg("indices") = nb::none(),
           "Removes attribute `name` from the ops at `indices` (every op of the table when None); "
           "returns how many had it. Mutates the IR: the table stays valid (no op is erased).")
      .def("named", &OpTable::named, nb::arg("name"),
           "The indices of the ops named `name`, in table order.");
}

} // namespace tfmlir_python
