#!/usr/bin/env python3
"""Checks that the language bindings' hand-copied declarations match facto's public C headers.

The Python (ctypes), Rust (facto-sys), Julia (ccall) and R bindings repeat prototypes, constants and
struct layouts of include/facto/facto.h (and of facto_experimental.h and facto_mpi.h when they exist) by
hand, and no compiler compares the copies: a stale argument type or status code becomes a crash or a
wrong answer at run time. This script parses the headers and the bindings and reports every difference:

  functions  every C function a binding binds must be declared in a header, with the same number of
             arguments and matching types (exact where the FFI can say it; an untyped pointer such as
             c_void_p, Ptr{Cvoid} or Any only for void*, opaque handles and callbacks); header functions
             a binding leaves unbound are only counted
  constants  every value a binding hard-codes for a FACTO_* constant: status codes, layouts, parameter
             and output types, the choice codes of the data helpers, the ABI major version, and the
             stop-reason tables indexed by status (which must list every stop reason)
  structs    field names, order and types of copied structs (facto_progress, facto_param_info)
  versions   each binding's package version (and R's configure floor) equals the headers' version: a
             binding calls the calls of its own release, so an older library must not satisfy it
R's C glue includes the headers, so the compiler checks its calls; only R's own hard-coded codes are
read, and that the glue includes every header whose functions it calls.

Usage: check_bindings.py [--root DIR]. DIR (default: this repository) holds bindings/; the headers come
from DIR/include/facto when it has facto.h, else from this repository. Exit status 1 on any mismatch.
"""
import argparse
import ast
import re
import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]
HEADERS = ("facto.h", "facto_experimental.h", "facto_mpi.h")

# Binding-side names of header constants that are not "FACTO_" + the name.
ALIASES = {"ABI_MAJOR": "FACTO_VERSION_MAJOR", "RUNNING": "FACTO_OK"}
# Choice tables (name without leading underscores or dots -> prefix of the constants their keys name).
TABLES = {"SCALINGS": "FACTO_SCALE_", "SIMILARITIES": "FACTO_SIMILARITY_", "SEARCHES": "FACTO_SEARCH_",
          "SEPARABLE": "FACTO_SEPARABLE_",
          "MANIFOLDS": "FACTO_MANIFOLD_"}
# Tables of stop reasons, in the order of their status values (from FACTO_OK).
STOP_TABLES = ("StopReason", "STOP_REASONS")

# ---- C types: ("named", name), ("ptr", target, const of target or None if unknown), ("fn", ret, args) ----

OPAQUE = ("opaque",)  # a pointer the FFI leaves untyped


def named(name):
    return ("named", name)


def pointer(target, const=None):
    return ("ptr", target, const)


def function(ret, args):
    return ("fn", ret, tuple(args))


def show(t):
    if t == OPAQUE:
        return "an untyped pointer"
    if t[0] == "named":
        return t[1]
    if t[0] == "fn":
        return f"{show(t[1])} (*)({', '.join(show(a) for a in t[2]) or 'void'})"
    target, const = t[1], t[2]
    if const and target[0] == "named":
        return f"const {target[1]}*"
    return show(target) + (" const*" if const else "*")


def compatible(bound, declared, handles):
    """Whether a binding's type `bound` passes like the header's `declared` (handles: opaque structs)."""
    if bound == OPAQUE:
        return declared[0] == "fn" or (declared[0] == "ptr" and declared[1][0] == "named" and
                                       declared[1][1] in handles | {"void"})
    if bound[0] != declared[0]:
        return False
    if bound[0] == "named":
        return bound == declared
    if bound[0] == "fn":
        return len(bound[2]) == len(declared[2]) and all(
            compatible(b, d, handles) for b, d in zip((bound[1],) + bound[2], (declared[1],) + declared[2]))
    return bound[2] in (None, declared[2]) and compatible(bound[1], declared[1], handles)


# ---- text helpers ----

C_COMMENTS = r'"(?:\\.|[^"\\\n])*"|//[^\n]*|/\*[\s\S]*?\*/'
JULIA_COMMENTS = r'"""[\s\S]*?"""|"(?:\\.|[^"\\\n])*"|#[^\n]*'
R_COMMENTS = r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|#[^\n]*'


def blank_comments(text, pattern):
    """text with the comments of `pattern` (an alternation of string literals and comments) turned into
    spaces; newlines stay, so offsets and line numbers do not move."""
    def blank(m):
        return m.group() if m.group()[0] in "\"'" else re.sub(r"[^\n]", " ", m.group())
    return re.sub(pattern, blank, text)


def enclosed(text, start):
    """The text inside the bracket at text[start]."""
    depth, quoted = 0, False
    for i in range(start, len(text)):
        c = text[i]
        if c == '"' and text[i - 1] != "\\":
            quoted = not quoted
        elif not quoted and c in "([{":
            depth += 1
        elif not quoted and c in ")]}":
            depth -= 1
            if depth == 0:
                return text[start + 1:i]
    raise ValueError(f"unbalanced bracket at offset {start}")


def split_top(text):
    """The comma-separated parts of text, split outside brackets and strings only."""
    parts, depth, quoted, start = [], 0, False, 0
    for i, c in enumerate(text):
        if c == '"' and text[i - 1:i] != "\\":
            quoted = not quoted
        elif not quoted and c in "([{":
            depth += 1
        elif not quoted and c in ")]}":
            depth -= 1
        elif not quoted and c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def c_struct_name(binding_name):
    """Progress -> facto_progress, ParamInfo -> facto_param_info."""
    return "facto_" + re.sub(r"(?<!^)(?=[A-Z])", "_", binding_name).lower()


# ---- the headers ----

C_BASES = {"int": "int32_t", "unsigned": "uint32_t", "unsigned int": "uint32_t", "long long": "int64_t",
           "unsigned long long": "uint64_t"}


class Header:
    """Functions, integer constants, structs and typedefs declared by the public headers."""

    def __init__(self, directory):
        self.files = [directory / name for name in HEADERS if (directory / name).exists()]
        self.functions = {}  # name -> (return type, [(argument, type)], header file name)
        self.constants = {}  # name -> int, in definition order
        self.structs = {}  # name -> [(field, type)]
        self.handles = set()  # opaque structs
        self.typedefs = {}  # name -> type
        self.includes = {}  # header file name -> the facto headers it includes
        for path in self.files:
            self.parse(path)

    def parse(self, path):
        code = blank_comments(path.read_text(encoding="utf-8"), C_COMMENTS)
        self.includes[path.name] = set(re.findall(r'#\s*include\s*[<"](?:facto/)?(facto\w*\.h)[>"]', code))
        for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+(FACTO_\w+)[ \t]+(.*)$", code, re.M):
            value = evaluate(m.group(2), self.constants)
            if value is not None:
                self.constants[m.group(1)] = value
        for statement in statements(code):
            self.declare(statement, path.name)

    def declare(self, text, file_name):
        m = re.fullmatch(r"FACTO_(?:\w+_)?API (.+?)\b(\w+) ?\((.*)\)", text)
        if m:
            self.functions[m.group(2)] = (self.c_type(m.group(1)), self.c_parameters(m.group(3)), file_name)
            return
        m = re.fullmatch(r"typedef struct (\w+) (\w+)", text)
        if m:
            self.handles.add(m.group(2))
            self.typedefs[m.group(2)] = named(m.group(2))
            return
        m = re.fullmatch(r"typedef struct (?:\w+ )?\{(.*)\} (\w+)", text)
        if m:
            self.structs[m.group(2)] = [self.c_declaration(f) for f in m.group(1).split(";") if f.strip()]
            self.typedefs[m.group(2)] = named(m.group(2))
            return
        m = re.fullmatch(r"(?:typedef )?enum (?:\w+ )?\{(.*)\}(?: (\w+))?", text)
        if m:
            self.declare_enum(m.group(1))
            if m.group(2):
                self.typedefs[m.group(2)] = named("int32_t")
            return
        m = re.fullmatch(r"typedef (.+)", text)
        if m:
            name, declared = self.c_declaration(m.group(1))
            self.typedefs[name] = declared

    def declare_enum(self, body):
        value = -1
        for enumerator in split_top(body):
            name, _, expression = enumerator.partition("=")
            value = evaluate(expression, self.constants) if expression else value + 1
            self.constants[name.strip()] = value

    def c_parameters(self, text):
        return [] if text.strip() in ("", "void") else [self.c_declaration(p) for p in split_top(text)]

    def c_declaration(self, text):
        """(name, type) of a declaration such as `const double* P` or `int32_t (*f)(void* data)`."""
        m = re.fullmatch(r"(.+?)\( ?\* ?(\w*) ?\) ?\((.*)\)", text.strip())
        if m:
            return m.group(2), function(self.c_type(m.group(1)), [t for _, t in self.c_parameters(m.group(3))])
        tokens = re.findall(r"\w+|\*", text)
        kept = [t for t in tokens if t != "const"]
        if len(kept) > 1 and kept[-1] != "*":
            return kept[-1], self.c_type(" ".join(tokens[:len(tokens) - 1 - tokens[::-1].index(kept[-1])]))
        return "", self.c_type(text)

    def c_type(self, text):
        tokens = [t for t in re.findall(r"\w+|\*", text) if t not in ("struct", "enum")]
        star = tokens.index("*") if "*" in tokens else len(tokens)
        base = " ".join(t for t in tokens[:star] if t != "const")
        result = self.typedefs.get(base, named(C_BASES.get(base, base)))
        const = "const" in tokens[:star]
        for token in tokens[star:]:
            if token == "*":
                result, const = pointer(result, const), False
            else:
                const = True
        return result

    def stop_statuses(self):
        """FACTO_OK and the positive statuses defined after it (the stop reasons), in order."""
        names = list(self.constants)
        errors = [i for i, name in enumerate(names) if name.startswith("FACTO_ERROR_")]
        return names[names.index("FACTO_OK"):min(errors)]

    def error_codes(self):
        return {value for name, value in self.constants.items() if name.startswith("FACTO_ERROR_")}


def evaluate(expression, constants):
    """The value of an integer constant expression, or None when it is not one."""
    expression = re.sub(r"\b(\d+)[uUlL]+\b", r"\1", expression.strip())
    try:
        tree = ast.parse(expression, mode="eval").body
    except SyntaxError:
        return None

    def value(node):
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return node.value
        if isinstance(node, ast.Name):
            return constants.get(node.id)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            inner = value(node.operand)
            return None if inner is None else (-inner if isinstance(node.op, ast.USub) else inner)
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)):
            left, right = value(node.left), value(node.right)
            if left is None or right is None:
                return None
            return {ast.Add: left + right, ast.Sub: left - right, ast.Mult: left * right}[type(node.op)]
        return None
    return value(tree)


def statements(code):
    """The declarations of a header (without `#ifdef __cplusplus` blocks and preprocessor lines), each
    on one line with single spaces."""
    code = re.sub(r"^[ \t]*#[ \t]*ifdef[ \t]+__cplusplus\b[\s\S]*?^[ \t]*#[ \t]*endif.*$", "", code, flags=re.M)
    code = re.sub(r"^[ \t]*#(?:.*\\\n)*.*$", "", code, flags=re.M)
    depth, start = 0, 0
    for i, c in enumerate(code):
        depth += {"{": 1, "}": -1}.get(c, 0)
        if c == ";" and depth == 0:
            yield " ".join(code[start:i].split())
            start = i + 1


# ---- what a binding declares ----

class Copies:
    """What one binding declares, each item with the file:line it comes from."""

    def __init__(self, root):
        self.root = root
        self.functions = []  # (where, name, return type, argument types)
        self.constants = []  # (where, label, value, header constant)
        self.structs = []  # (where, header struct, [(field, type)])
        self.error_codes = []  # (where, label, value): must be an error status
        self.stop_tables = []  # (where, label, [(stop reason, value)])
        self.problems = []  # (where, message): found while reading

    def where(self, path, line):
        return f"{path.relative_to(self.root)}:{line}"

    def files(self, directory, pattern):
        found = sorted(p for p in (self.root / directory).rglob(pattern)
                       if "target" not in p.relative_to(self.root).parts)
        if not found:
            self.problems.append((directory, f"no {pattern} files: the binding is missing"))
        return found

    def optional_constant(self, header, where, name, value):
        """A binding constant named after a header constant (ROW_MAJOR for FACTO_ROW_MAJOR)."""
        c_name = ALIASES.get(name, "FACTO_" + name)
        if c_name in header.constants:
            self.constants.append((where, name, value, c_name))

    def choice(self, header, where, key, chosen, otherwise):
        """`key == "cosine" ? 1 : 0`: 1 is the constant named ..._COSINE; 0 the other one of its group,
        when the group has two."""
        candidates = [n for n in header.constants if n.startswith("FACTO_") and n.endswith("_" + key.upper())]
        if len(candidates) != 1:
            self.problems.append((where, f"cannot tell which FACTO_* constant {key!r} stands for: {candidates}"))
            return
        self.constants.append((where, f"the code of {key!r}", chosen, candidates[0]))
        prefix = candidates[0][:-len(key)]
        group = [n for n in header.constants if n.startswith(prefix)]
        if len(group) == 2:
            other = group[1 - group.index(candidates[0])]
            self.constants.append((where, f"the code of the alternative to {key!r}", otherwise, other))


# ---- Python (ctypes) ----

CTYPES = {"c_int8": "int8_t", "c_int16": "int16_t", "c_int32": "int32_t", "c_int64": "int64_t",
          "c_uint8": "uint8_t", "c_uint16": "uint16_t", "c_uint32": "uint32_t", "c_uint64": "uint64_t",
          "c_int": "int32_t", "c_uint": "uint32_t", "c_double": "double", "c_float": "float", "c_char": "char",
          "c_size_t": "size_t"}


def dotted(node):
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return dotted(node.value) + "." + node.attr
    return ""


def int_value(node):
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = int_value(node.operand)
        return None if inner is None else -inner
    return node.value if isinstance(node, ast.Constant) and type(node.value) is int else None


class PythonModule:
    def __init__(self, path):
        self.path = path
        self.source = path.read_text(encoding="utf-8")
        self.tree = ast.parse(self.source, str(path))
        self.assigned = {node.targets[0].id: node.value for node in self.tree.body
                         if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)}
        self.structs = {node.name: node for node in self.tree.body if isinstance(node, ast.ClassDef)
                        and any(dotted(b) in ("ctypes.Structure", "Structure") for b in node.bases)}

    def c_type(self, node):
        if isinstance(node, ast.Constant) and node.value is None:
            return named("void")
        if isinstance(node, ast.Call) and dotted(node.func).split(".")[-1] == "POINTER" and len(node.args) == 1:
            return pointer(self.c_type(node.args[0]))
        if isinstance(node, ast.Call) and dotted(node.func).split(".")[-1] == "CFUNCTYPE" and node.args:
            return function(self.c_type(node.args[0]), [self.c_type(a) for a in node.args[1:]])
        name = dotted(node)
        if name in self.assigned:
            return self.c_type(self.assigned[name])
        if name in self.structs:
            return named(c_struct_name(name))
        ctype = name.split(".")[-1]
        if name in (ctype, "ctypes." + ctype) and ctype in ("c_void_p", "c_char_p", *CTYPES):
            return {"c_void_p": OPAQUE, "c_char_p": pointer(named("char"))}.get(ctype) or named(CTYPES[ctype])
        raise ValueError(f"cannot map {ast.get_source_segment(self.source, node)} to a C type")


def parse_python(root, header):
    copies = Copies(root)
    modules = [PythonModule(path) for path in copies.files("bindings/python/facto", "*.py")]
    bound = set()
    for module in modules:
        bound |= python_prototypes(module, copies)
        python_structs(module, copies)
        python_constants(module, copies, header)
    python_unprototyped_calls(modules, bound, copies)
    python_error_codes(modules, copies)
    return copies


def python_prototypes(module, copies):
    """The {"facto_x": (restype, [argtypes])} tables; returns the names they bind."""
    names = set()
    for node in module.tree.body:
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict) and node.value.keys and
                all(isinstance(k, ast.Constant) and str(k.value).startswith("facto_") for k in node.value.keys)):
            continue
        for key, value in zip(node.value.keys, node.value.values):
            names.add(key.value)
            where = copies.where(module.path, key.lineno)
            if not (isinstance(value, ast.Tuple) and len(value.elts) == 2 and
                    isinstance(value.elts[1], (ast.List, ast.Tuple))):
                copies.problems.append((where, f"{key.value}: expected (restype, [argtypes])"))
                continue
            try:
                copies.functions.append((where, key.value, module.c_type(value.elts[0]),
                                         [module.c_type(a) for a in value.elts[1].elts]))
            except ValueError as e:
                copies.problems.append((where, f"{key.value}: {e}"))
    return names


def python_structs(module, copies):
    for name, node in module.structs.items():
        for statement in node.body:
            if isinstance(statement, ast.Assign) and dotted(statement.targets[0]) == "_fields_":
                fields = [(f.elts[0].value, module.c_type(f.elts[1])) for f in statement.value.elts]
                copies.structs.append((copies.where(module.path, node.lineno), c_struct_name(name), fields))


def python_constants(module, copies, header):
    for node in module.tree.body:
        where = copies.where(module.path, node.lineno)
        if isinstance(node, ast.ClassDef) and node.name in STOP_TABLES:
            members = [(s.targets[0].id, int_value(s.value)) for s in node.body if isinstance(s, ast.Assign)]
            copies.stop_tables.append((where, node.name, members))
        if not isinstance(node, ast.Assign):
            continue
        target, value = node.targets[0], node.value
        if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple):
            pairs = zip(target.elts, value.elts)
        else:
            pairs = [(target, value)]
        for name, item in pairs:
            if isinstance(name, ast.Name) and int_value(item) is not None:
                copies.optional_constant(header, where, name.id, int_value(item))
        if isinstance(target, ast.Name) and isinstance(value, ast.Dict) and target.id.lstrip("_") in TABLES:
            for key, item in zip(value.keys, value.values):
                copies.constants.append((copies.where(module.path, key.lineno), f"{target.id}[{key.value!r}]",
                                         int_value(item), TABLES[target.id.lstrip("_")] + key.value.upper()))


def python_unprototyped_calls(modules, bound, copies):
    """lib.facto_x without a prototype: ctypes would pass and return C ints."""
    for module in modules:
        for node in ast.walk(module.tree):
            if isinstance(node, ast.Attribute) and node.attr.startswith("facto_") and node.attr not in bound:
                copies.problems.append((copies.where(module.path, node.lineno),
                                        f"{node.attr} is used without a prototype (argtypes/restype)"))


def python_error_codes(modules, copies):
    """The status -> exception class table, and FactoXError(status, ...) raised by the binding itself,
    whose class must be the one the table gives that status."""
    classes = {}
    for module in modules:
        for node in module.tree.body:
            if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict) and node.value.keys and
                    all(int_value(k) is not None for k in node.value.keys)):
                for key, value in zip(node.value.keys, node.value.values):
                    classes[int_value(key)] = dotted(value)
                    copies.error_codes.append((copies.where(module.path, key.lineno),
                                               f"{dotted(node.targets[0])}[{int_value(key)}]", int_value(key)))
    for module in modules:
        for node in ast.walk(module.tree):
            if not (isinstance(node, ast.Call) and re.fullmatch(r"Facto\w*Error", dotted(node.func).split(".")[-1])
                    and node.args and int_value(node.args[0]) is not None):
                continue
            where, raised, status = copies.where(module.path, node.lineno), dotted(node.func).split(".")[-1], \
                int_value(node.args[0])
            copies.error_codes.append((where, f"{raised}({status}, ...)", status))
            if classes.get(status, "FactoError") != raised:
                copies.problems.append((where, f"{raised}({status}, ...): status {status} is raised as "
                                               f"{classes.get(status, 'FactoError')} everywhere else"))


# ---- Julia (ccall) ----

JULIA_TYPES = {"Int8": "int8_t", "Int16": "int16_t", "Int32": "int32_t", "Int64": "int64_t", "UInt8": "uint8_t",
               "UInt16": "uint16_t", "UInt32": "uint32_t", "UInt64": "uint64_t", "Cint": "int32_t",
               "Cuint": "uint32_t", "Clonglong": "int64_t", "Culonglong": "uint64_t", "Csize_t": "size_t",
               "Float64": "double", "Cdouble": "double", "Float32": "float", "Cfloat": "float", "Cchar": "char",
               "Cvoid": "void", "Nothing": "void"}


def julia_type(text, structs):
    """structs: Julia struct name -> header struct name."""
    text = text.strip()
    if text in ("Ptr{Cvoid}", "Ptr{Nothing}", "Any"):
        return OPAQUE
    if text == "Cstring":
        return pointer(named("char"))
    m = re.fullmatch(r"(?:Ptr|Ref)\{(.+)\}", text)
    if m:
        return pointer(julia_type(m.group(1), structs))
    if text in JULIA_TYPES:
        return named(JULIA_TYPES[text])
    if text in structs:
        return named(structs[text])
    raise ValueError(f"cannot map Julia type {text} to a C type")


def julia_int(text):
    m = re.fullmatch(r"Int32\((-?\d+)\)|(-?\d+)", text.strip())
    return None if m is None else int(m.group(1) or m.group(2))


def parse_julia(root, header):
    copies = Copies(root)
    for path in copies.files("bindings/julia/Facto/src", "*.jl"):
        raw = path.read_text(encoding="utf-8")
        code = blank_comments(raw, JULIA_COMMENTS)
        structs = julia_structs(path, code, header, copies)
        julia_ccalls(path, code, structs, header, copies)
        julia_constants(path, raw, code, header, copies)
    return copies


def julia_structs(path, code, header, copies):
    """Copies of header structs (`struct Progress` for facto_progress); returns Julia name -> C name."""
    copied = {}
    for m in re.finditer(r"^struct\s+(\w+)\s*\n(.*?)^end\b", code, re.M | re.S):
        if c_struct_name(m.group(1)) in header.structs:
            copied[m.group(1)] = c_struct_name(m.group(1))
            fields = re.findall(r"^\s*(\w+)::(\S+)", m.group(2), re.M)
            copies.structs.append((copies.where(path, line_of(code, m.start())), copied[m.group(1)],
                                   [(f, julia_type(t, copied)) for f, t in fields]))
            for call in re.finditer(rf"\b{m.group(1)}\(", code):
                given = len(split_top(enclosed(code, call.end() - 1)))
                if given != len(fields):
                    copies.problems.append((copies.where(path, line_of(code, call.start())),
                                            f"{m.group(1)}(...) is given {given} values, it has {len(fields)} fields"))
    return copied


def julia_names(code, target, offset):
    """The C functions a ccall target names: sym(:facto_x), (:facto_x, lib), or a Symbol argument of the
    enclosing function, resolved through its call sites (run(s, :facto_solver_step))."""
    names = re.findall(r":(facto_\w+)", target)
    enclosing = list(re.finditer(r"^function\s+([\w!]+)\s*\(", code[:offset], re.M))
    if names or not enclosing or not re.fullmatch(r"(?:sym\()?\w+\)?", target):
        return names
    return re.findall(rf"\b{re.escape(enclosing[-1].group(1))}\([^()]*?:(facto_\w+)[^()]*\)", code)


def julia_ccalls(path, code, structs, header, copies):
    callbacks = {m.group(1): split_top(enclosed(code, m.end() - 1))
                 for m in re.finditer(r"(\w+)\s*=\s*@cfunction\s*\(", code)}
    passed = set()
    for m in re.finditer(r"\bccall\s*\(", code):
        where = copies.where(path, line_of(code, m.start()))
        target, ret, types, *values = split_top(enclosed(code, m.end() - 1))
        names = julia_names(code, target, m.start())
        if not names or not re.fullmatch(r"\(.*\)", types, re.S):
            copies.problems.append((where, f"cannot read ccall({target}, {ret}, {types}, ...)"))
            continue
        types = split_top(types[1:-1])
        if len(values) != len(types):
            copies.problems.append((where, f"{names[0]}: ccall passes {len(values)} values for {len(types)} types"))
        try:
            signature = julia_type(ret, structs), [julia_type(t, structs) for t in types]
        except ValueError as e:
            copies.problems.append((where, f"{names[0]}: {e}"))
            continue
        for name in names:
            copies.functions.append((where, name) + signature)
            for index, value in enumerate(values):
                if value in callbacks and name in header.functions:
                    passed.add(value)
                    julia_callback(where, name, index, callbacks[value], structs, header, copies)
    for unused in set(callbacks) - passed:
        copies.problems.append((str(path.relative_to(copies.root)),
                                f"@cfunction {unused} is not passed to a ccall: its C type is unchecked"))


def julia_callback(where, name, index, cfunction, structs, header, copies):
    """A @cfunction passed as argument `index` of `name` must have the header's callback type."""
    _, ret, types = cfunction
    bound = function(julia_type(ret, structs), [julia_type(t, structs) for t in split_top(types[1:-1])])
    parameters = header.functions[name][1]
    if index < len(parameters) and not compatible(bound, parameters[index][1], header.handles):
        copies.problems.append((where, f"{name}: the @cfunction passed as argument {index + 1} is {show(bound)}, "
                                       f"the header says {show(parameters[index][1])}"))


def julia_constants(path, raw, code, header, copies):
    def where(offset):
        return copies.where(path, line_of(code, offset))
    for m in re.finditer(r"^const\s+([\w\s,]+?)\s*=\s*", code, re.M):
        names, rest = [n.strip() for n in m.group(1).split(",")], code[m.end():]
        table = names[0].lstrip("_")
        if rest.startswith("Dict(") and table in TABLES:
            for entry in split_top(enclosed(code, m.end() + 4)):
                key, _, value = entry.partition("=>")
                value = split_top(value.strip()[1:-1])[0] if value.strip().startswith("(") else value
                copies.constants.append((where(m.start()), f"{names[0]}[{key.strip()}]", julia_int(value),
                                         TABLES[table] + key.strip().lstrip(":").upper()))
        elif rest.startswith("(") and names[0] in STOP_TABLES:
            symbols = split_top(enclosed(code, m.end()))
            copies.stop_tables.append((where(m.start()), names[0],
                                       [(s.lstrip(":"), i) for i, s in enumerate(symbols)]))
        else:
            values = split_top(rest.split("\n")[0])
            for name, value in zip(names, values if len(values) == len(names) else []):
                if julia_int(value) is not None:
                    copies.optional_constant(header, where(m.start()), name, julia_int(value))
    for m in re.finditer(r'FactoError\(\s*(-?\d+)\s*,\s*"(FACTO_\w+)"', code):
        copies.constants.append((where(m.start()), f'FactoError({m.group(1)}, "{m.group(2)}")', int(m.group(1)),
                                 m.group(2)))
    for m in re.finditer(r"===?\s*:(\w+)\s*\?\s*(?:Int32\()?(-?\d+)\)?\s*:\s*(?:Int32\()?(-?\d+)\)?", code):
        copies.choice(header, where(m.start()), m.group(1), int(m.group(2)), int(m.group(3)))
    for m in re.finditer(r"\bmajor\s*==\s*(\d+)", code):
        copies.constants.append((where(m.start()), "the ABI major it accepts", int(m.group(1)),
                                 "FACTO_VERSION_MAJOR"))
    for number, (raw_line, code_line) in enumerate(zip(raw.split("\n"), code.split("\n")), 1):
        named_constant = re.search(r"#\s*(FACTO_[A-Z0-9_]+)\s*$", raw_line)
        literals = re.findall(r"Int32\((-?\d+)\)", code_line)
        if named_constant and code_line[named_constant.start()] == " " and len(literals) == 1:
            copies.constants.append((copies.where(path, number), f"Int32({literals[0]}) commented "
                                     f"{named_constant.group(1)}", int(literals[0]), named_constant.group(1)))


# ---- Rust (facto-sys) ----

RUST_TYPES = {"i8": "int8_t", "i16": "int16_t", "i32": "int32_t", "i64": "int64_t", "u8": "uint8_t",
              "u16": "uint16_t", "u32": "uint32_t", "u64": "uint64_t", "f32": "float", "f64": "double",
              "usize": "size_t", "c_char": "char", "c_int": "int32_t", "c_uint": "uint32_t", "c_double": "double",
              "c_void": "void", "()": "void"}


def rust_type(text, aliases, structs):
    """aliases: `pub type` name -> its definition; structs: the file's struct names."""
    text = re.sub(r"\b(?:\w+::)+", "", " ".join(text.split()))
    m = re.fullmatch(r"\*(const|mut) (.+)", text)
    if m:
        return pointer(rust_type(m.group(2), aliases, structs), m.group(1) == "const")
    m = re.fullmatch(r"Option<(.+)>", text)
    if m:
        return rust_type(m.group(1), aliases, structs)
    m = re.fullmatch(r'(?:unsafe )?extern "C" fn ?\((.*)\)(?: ?-> ?(.+))?', text)
    if m:
        return function(rust_type(m.group(2) or "()", aliases, structs),
                        [rust_type(re.sub(r"^\w+ ?:(?!:) ?", "", a), aliases, structs) for a in split_top(m.group(1))])
    if text in aliases:
        return rust_type(aliases[text], aliases, structs)
    if text in RUST_TYPES:
        return named(RUST_TYPES[text])
    if text in structs:
        return named(text)
    raise ValueError(f"cannot map Rust type {text} to a C type")


def parse_rust(root, header):
    copies = Copies(root)
    for path in copies.files("bindings/rust", "*.rs"):
        code = blank_comments(path.read_text(encoding="utf-8"), C_COMMENTS)
        aliases = dict(re.findall(r"\bpub type (\w+)\s*=\s*([^;]+);", code))
        structs = {m.group(2): m for m in re.finditer(r"((?:#\[[^\]]*\]\s*)*)pub struct (\w+)\s*\{([^}]*)\}", code)}
        for m in re.finditer(r"\bpub const (FACTO_\w+)\s*:\s*[\w:]+\s*=\s*(-?\d+)\s*;", code):
            copies.constants.append((copies.where(path, line_of(code, m.start())), m.group(1), int(m.group(2)),
                                     m.group(1)))
        for check in (rust_aliases, rust_structs, rust_functions):
            check(path, code, aliases, structs, copies, header)
    return copies


def rust_aliases(path, code, aliases, structs, copies, header):
    """`pub type facto_status = i32;` and the callback types, against the headers' typedefs."""
    for name, definition in aliases.items():
        if name in header.typedefs or name.startswith("facto_"):
            where = copies.where(path, line_of(code, code.index(f"pub type {name}")))
            declared = header.typedefs.get(name)
            bound = rust_type(definition, aliases, structs)
            if declared is None or not compatible(bound, declared, header.handles):
                copies.problems.append((where, f"type {name} is {show(bound)}, the headers' is "
                                               f"{show(declared) if declared else 'not declared'}"))


def rust_structs(path, code, aliases, structs, copies, header):
    for name, m in structs.items():
        where = copies.where(path, line_of(code, m.start(2)))
        if name in header.structs:
            if not re.search(r"#\[repr\(C\)\]", m.group(1)):
                copies.problems.append((where, f"struct {name} lacks #[repr(C)]"))
            fields = re.findall(r"(?:pub\s+)?(\w+)\s*:\s*([^,]+)", m.group(3))
            copies.structs.append((where, name, [(re.sub(r"_$", "", f), rust_type(t, aliases, structs))
                                                 for f, t in fields]))
        elif name.startswith("facto_") and name not in header.handles:
            copies.problems.append((where, f"struct {name}: the headers declare no such struct"))


def rust_functions(path, code, aliases, structs, copies, header):
    for block in re.finditer(r'\bextern\s+"C"\s*\{', code):
        body = enclosed(code, block.end() - 1)
        for m in re.finditer(r"\bfn\s+(\w+)\s*\(", body):
            where = copies.where(path, line_of(code, block.end() + m.start()))
            arguments = enclosed(body, m.end() - 1)
            ret = re.match(r"\s*(?:->\s*([^;]+?))?\s*;", body[m.end() + len(arguments) + 1:])
            try:
                if ret is None:
                    raise ValueError("no `-> type;` after the arguments")
                arguments = [rust_type(re.sub(r"^\w+\s*:(?!:)", "", a), aliases, structs) for a in split_top(arguments)]
                returned = rust_type(ret.group(1) or "()", aliases, structs)
                copies.functions.append((where, m.group(1), returned, arguments))
            except ValueError as e:
                copies.problems.append((where, f"{m.group(1)}: {e}"))


# ---- R ----

def parse_r(root, header):
    copies = Copies(root)
    for path in copies.files("bindings/r/R", "*.R"):
        code = blank_comments(path.read_text(encoding="utf-8"), R_COMMENTS)
        r_constants(path, code, header, copies)
    for path in copies.files("bindings/r/src", "*.c"):
        r_includes(path, header, copies)
    return copies


def r_int(text):
    m = re.fullmatch(r"(-?\d+)L?", text.strip())
    return None if m is None else int(m.group(1))


def r_constants(path, code, header, copies):
    def where(offset):
        return copies.where(path, line_of(code, offset))
    for m in re.finditer(r"^([\w.]+)\s*<-\s*", code, re.M):
        name, rest = m.group(1), code[m.end():]
        if rest.startswith("c(") and name in STOP_TABLES:
            entries = split_top(enclosed(code, m.end() + 1))
            copies.stop_tables.append((where(m.start()), name, [(e.strip("\"'"), i) for i, e in enumerate(entries)]))
        elif rest.startswith("c(") and name.lstrip("._") in TABLES:
            for entry in split_top(enclosed(code, m.end() + 1)):
                key, _, value = entry.partition("=")
                copies.constants.append((where(m.start()), f"{name}[[{key.strip()!r}]]", r_int(value),
                                         TABLES[name.lstrip("._")] + key.strip().strip("\"'`").upper()))
        elif r_int(rest.split("\n")[0]) is not None:
            copies.optional_constant(header, where(m.start()), name, r_int(rest.split("\n")[0]))
    for m in re.finditer(r'==\s*"(\w+)"\s*\)\s*(-?\d+)L?\s+else\s+(-?\d+)L?', code):
        copies.choice(header, where(m.start()), m.group(1), int(m.group(2)), int(m.group(3)))
    for m in re.finditer(r"\bmajor\s*!=\s*(\d+)L?", code):
        copies.constants.append((where(m.start()), "the ABI major it accepts", int(m.group(1)),
                                 "FACTO_VERSION_MAJOR"))


def r_includes(path, header, copies):
    """The glue is compiled against the headers, which checks every call to a function they declare:
    it must include the header of each facto function it calls."""
    text = blank_comments(path.read_text(encoding="utf-8"), C_COMMENTS)
    included = set(re.findall(r'#\s*include\s*[<"](?:facto/)?(facto\w*\.h)[>"]', text))
    while any(header.includes.get(h, set()) - included for h in included):
        included |= set().union(*(header.includes.get(h, set()) for h in included))
    code = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    missing = {}  # header file not included (None: no header declares them) -> [(line, function)]
    for m in re.finditer(r"\b(facto_\w+)\s*\(", code):
        name = m.group(1)
        declared = header.functions.get(name)
        if not name.startswith("facto_r_") and name not in header.typedefs and (not declared or
                                                                                declared[2] not in included):
            missing.setdefault(declared and declared[2], []).append((line_of(code, m.start()), name))
    for file_name, calls in missing.items():
        names = ", ".join(dict.fromkeys(name for _, name in calls))
        copies.problems.append((copies.where(path, calls[0][0]), f"calls {names}, " + (
            f"declared in {file_name}, which it does not include" if file_name else "which no header declares")))


# ---- comparing ----

def function_mismatches(header, name, ret, args):
    if name not in header.functions:
        return [f"{name}: the headers declare no such function"]
    declared_ret, parameters, file_name = header.functions[name]
    if len(args) != len(parameters):
        return [f"{name}: binds {len(args)} arguments, {file_name} declares {len(parameters)} "
                f"({', '.join(p for p, _ in parameters) or 'void'})"]
    found = []
    if not compatible(ret, declared_ret, header.handles):
        found.append(f"{name}: returns {show(ret)}, {file_name} says {show(declared_ret)}")
    for i, (bound, (parameter, declared)) in enumerate(zip(args, parameters), 1):
        if not compatible(bound, declared, header.handles):
            found.append(f"{name}: argument {i} ({parameter}) is {show(bound)}, {file_name} says {show(declared)}")
    return found


def constant_mismatch(header, label, value, c_name):
    if c_name not in header.constants:
        return f"{label} = {value}: the headers define no {c_name}"
    if value != header.constants[c_name]:
        return f"{label} = {value}, but {c_name} is {header.constants[c_name]}"
    return None


def struct_mismatches(header, name, fields):
    if name not in header.structs:
        return [f"struct {name}: the headers declare no such struct"]
    declared = header.structs[name]
    found = [f"struct {name} field {i}: '{f}' {show(t)}, the header has '{d}' {show(dt)}"
             for i, ((f, t), (d, dt)) in enumerate(zip(fields, declared), 1)
             if f != d or not compatible(t, dt, header.handles)]
    if len(fields) != len(declared):
        found.append(f"struct {name}: {len(fields)} fields, the header has {len(declared)}")
    return found


def stop_table_mismatches(header, label, members):
    found, names = [], []
    for member, value in members:
        names.append(ALIASES.get(member.upper(), "FACTO_" + member.upper()))
        found.append(constant_mismatch(header, f"{label} {member}", value, names[-1]))
    missing = [f"{s} ({header.constants[s]})" for s in header.stop_statuses() if s not in names]
    if missing:
        found.append(f"{label} lacks {', '.join(missing)}")
    return [f for f in found if f]


def mismatches(copies, header):
    """(where, message) for everything the binding declares differently from the headers."""
    found = list(copies.problems)
    for where, name, ret, args in copies.functions:
        found += [(where, m) for m in function_mismatches(header, name, ret, args)]
    for where, label, value, c_name in copies.constants:
        message = constant_mismatch(header, label, value, c_name)
        found += [(where, message)] if message else []
    for where, name, fields in copies.structs:
        found += [(where, m) for m in struct_mismatches(header, name, fields)]
    for where, label, value in copies.error_codes:
        if value not in header.error_codes():
            found.append((where, f"{label}: {value} is not an error status of the headers"))
    for where, label, members in copies.stop_tables:
        found += [(where, m) for m in stop_table_mismatches(header, label, members)]
    return found


BINDINGS = (("python", parse_python), ("rust", parse_rust), ("julia", parse_julia), ("r", parse_r))


# Where each binding states the version of facto it is (file, pattern whose group 1 is the version).
VERSION_SITES = (
    ("bindings/python/pyproject.toml", r'^version = "([0-9.]+)"'),
    ("bindings/python/facto/__init__.py", r'^__version__ = "([0-9.]+)"'),
    ("bindings/r/DESCRIPTION", r"^Version: ([0-9.]+)"),
    ("bindings/r/configure", r"--atleast-version=([0-9.]+)"),
    ("bindings/rust/facto-sys/Cargo.toml", r'^version = "([0-9.]+)"'),
    ("bindings/rust/facto/Cargo.toml", r'^version = "([0-9.]+)"'),
    ("bindings/rust/facto/Cargo.toml", r'facto-sys = .*version = "([0-9.]+)"'),
    ("bindings/julia/Facto/Project.toml", r'^version = "([0-9.]+)"'),
)


def version_mismatches(root, header):
    """Every binding's stated version against FACTO_VERSION_MAJOR.MINOR.PATCH."""
    c = header.constants
    wanted = f"{c['FACTO_VERSION_MAJOR']}.{c['FACTO_VERSION_MINOR']}.{c['FACTO_VERSION_PATCH']}"
    found = []
    for name, pattern in VERSION_SITES:
        path = root / name
        if not path.exists():
            continue
        m = re.search(pattern, path.read_text(encoding="utf-8"), re.M)
        if m is None:
            found.append((name, f"states no version (looked for {pattern})"))
        elif m.group(1) != wanted:
            found.append((name, f"says {m.group(1)}, the headers are {wanted}"))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=REPOSITORY,
                        help="the tree whose bindings/ are checked (default: this repository)")
    root = parser.parse_args().root.resolve()
    header = Header(root / "include/facto" if (root / "include/facto/facto.h").exists()
                    else REPOSITORY / "include/facto")
    if not header.files:
        sys.exit("no include/facto/facto.h")
    print("headers: " + ", ".join(str(p) for p in header.files))
    total = 0
    for name, parse in BINDINGS:
        try:
            copies = parse(root, header)
        except (ValueError, SyntaxError) as e:
            print(f"MISMATCH {name}: cannot read the binding: {e}")
            total += 1
            continue
        found = mismatches(copies, header)
        for where, message in found:
            print(f"MISMATCH {name}: {where}: {message}")
        bound = {f[1] for f in copies.functions}
        functions = (f"{len(bound)} functions bound ({len(set(header.functions) - bound)} of the headers' "
                     f"{len(header.functions)} not bound)" if bound else "no function declared by hand")
        print(f"{name}: {functions}, {len(copies.constants) + len(copies.error_codes)} constants, "
              f"{len(copies.stop_tables)} stop-reason tables, {len(copies.structs)} structs checked: "
              f"{len(found)} mismatches")
        total += len(found)
    versions = version_mismatches(root, header)
    for where, message in versions:
        print(f"MISMATCH version: {where}: {message}")
    print(f"versions: {len(VERSION_SITES)} sites checked: {len(versions)} mismatches")
    total += len(versions)
    print(f"FAILED: {total} mismatches" if total else "all bindings match the headers")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
