// The mutants of one TypeScript module for scripts/mutation.mjs: small, plausible bugs, each a text
// replacement at a span of the syntax tree (oxc-parser, whose offsets count UTF-16 units as JavaScript
// strings do). Types are never mutated: only what runs. Each mutant has a key (line:column and the
// operator) that docs/testing.md and scripts/mutation-scope.mjs cite to mark one as equivalent.
import { parseSync } from "oxc-parser";

const FLIPS = {
  "===": ["!=="],
  "!==": ["==="],
  "==": ["!="],
  "!=": ["=="],
  "<": ["<=", ">="],
  "<=": ["<", ">"],
  ">": [">=", "<="],
  ">=": [">", "<"],
  "-": ["+"],
  "*": ["/"],
  "/": ["*"],
  "%": ["*"],
  "&&": ["||"],
  "||": ["&&"],
  "??": ["&&"],
};
// Method calls whose removal (the receiver kept) or swap is a likely slip.
const DROPPED_METHODS = new Set(["trim", "trimStart", "trimEnd", "toLowerCase", "toUpperCase", "normalize", "filter", "slice", "sort", "reverse", "substring"]);
const SWAPPED_METHODS = {
  startsWith: "endsWith",
  endsWith: "startsWith",
  some: "every",
  every: "some",
  min: "max",
  max: "min",
  toLowerCase: "toUpperCase",
  toUpperCase: "toLowerCase",
};
// Syntax that is type only, or names rather than values: nothing under these is mutated.
const SKIPPED = new Set([
  "ImportDeclaration",
  "ExportAllDeclaration",
  "TSTypeAnnotation",
  "TSTypeAliasDeclaration",
  "TSInterfaceDeclaration",
  "TSTypeParameterInstantiation",
  "TSTypeParameterDeclaration",
  "TSDeclareFunction",
  "TSModuleDeclaration",
  "TSEnumDeclaration",
]);

/** The mutants of `source` (a .ts module): [{ key, line, column, operator, start, end, replacement }]. */
export function mutantsOf(file, source) {
  const { program, errors } = parseSync(file, source);
  if (errors.length > 0) throw new Error(`${file} does not parse: ${errors[0].message}`);
  const found = [];
  const add = (node, operator, replacement, start = node.start, end = node.end) => {
    if (source.slice(start, end) === replacement) return;
    found.push({ operator, start, end, replacement });
  };
  walk(program, null, (node, parent) => visit(node, parent, source, add));
  const lines = lineStarts(source);
  return found
    .sort((a, b) => a.start - b.start || a.end - b.end)
    .map((m) => {
      const { line, column } = position(lines, m.start);
      return { ...m, line, column, key: `${line}:${column} ${m.operator}`, original: source.slice(m.start, m.end) };
    });
}

/** `source` with `mutant` applied. */
export function applyMutant(source, mutant) {
  return source.slice(0, mutant.start) + mutant.replacement + source.slice(mutant.end);
}

function visit(node, parent, source, add) {
  switch (node.type) {
    case "BinaryExpression":
    case "LogicalExpression": {
      // `a + b` may be a string: its flip is left out rather than reported as a sure kill.
      for (const op of FLIPS[node.operator] ?? []) {
        const at = operatorSpan(source, node);
        if (at) add(node, `${node.operator} to ${op}`, op, at.start, at.end);
      }
      break;
    }
    case "IfStatement":
    case "WhileStatement":
    case "DoWhileStatement":
    case "ConditionalExpression":
      add(node.test, "condition true", "true");
      add(node.test, "condition false", "false");
      break;
    case "ForStatement":
      if (node.test) add(node.test, "condition false", "false");
      break;
    case "UnaryExpression":
      if (node.operator === "!") add(node, "negation removed", source.slice(node.argument.start, node.argument.end));
      break;
    case "Literal":
      if (typeof node.value === "boolean") add(node, `${node.value} to ${!node.value}`, String(!node.value));
      else if (typeof node.value === "string" && node.value !== "" && !isName(node, parent)) add(node, "string emptied", '""');
      else if (node.regex) for (const [operator, replacement] of regexMutants(node.regex)) add(node, operator, replacement);
      break;
    case "TemplateLiteral":
      if (parent?.type === "TaggedTemplateExpression") break;
      if (node.quasis.some((q) => q.value.raw !== "")) add(node, "template emptied", "``");
      // A part of an address or a key left out (the voice of a paragraph's audio address).
      for (const part of node.expressions) add(part, "template part removed", "", source.lastIndexOf("${", part.start), source.indexOf("}", part.end) + 1);
      break;
    case "ExpressionStatement":
      if (isCall(node.expression)) add(node, "call removed", ";");
      break;
    case "CallExpression":
      callMutants(node, source, add);
      break;
    case "NewExpression": {
      // new RegExp(pattern, "gu"): matching made case-insensitive, as a literal's `i` toggle does.
      const flags = node.arguments[1];
      if (node.callee.type === "Identifier" && node.callee.name === "RegExp" && flags?.type === "Literal" && typeof flags.value === "string") {
        add(
          flags,
          flags.value.includes("i") ? "regex i removed" : "regex i added",
          JSON.stringify(flags.value.includes("i") ? flags.value.replace("i", "") : `${flags.value}i`),
        );
      }
      break;
    }
    case "BlockStatement":
      if (node.body.length > 0 && isFunction(parent)) add(node, "body emptied", "{}");
      break;
    case "ArrayExpression":
      if (node.elements.length > 0) add(node, "array emptied", "[]");
      break;
  }
}

function callMutants(node, source, add) {
  const callee = node.callee;
  if (callee.type === "MemberExpression" && !callee.computed && callee.property.type === "Identifier") {
    const name = callee.property.name;
    const receiver = source.slice(callee.object.start, callee.object.end);
    if (DROPPED_METHODS.has(name)) add(node, `.${name}() removed`, receiver);
    if (Object.hasOwn(SWAPPED_METHODS, name)) add(callee.property, `.${name} to .${SWAPPED_METHODS[name]}`, SWAPPED_METHODS[name]);
  }
  // f(x) -> x: a sanitiser, an escape or a normaliser left out.
  if (callee.type === "Identifier" && node.arguments.length === 1 && node.arguments[0].type !== "SpreadElement") {
    const arg = node.arguments[0];
    add(node, `${callee.name}() skipped`, source.slice(arg.start, arg.end));
  }
}

/** Anchors dropped, case folding toggled, a class or shorthand negated: the first of each kind. */
function regexMutants({ pattern, flags }) {
  const out = [];
  const literal = (p, f) => `/${p}/${f}`;
  if (pattern.startsWith("^")) out.push(["regex ^ removed", literal(pattern.slice(1), flags)]);
  if (pattern.endsWith("$") && !pattern.endsWith("\\$")) out.push(["regex $ removed", literal(pattern.slice(0, -1), flags)]);
  out.push(flags.includes("i") ? ["regex i removed", literal(pattern, flags.replace("i", ""))] : ["regex i added", literal(pattern, `${flags}i`)]);
  const shorthand = /\\[dswDSW]/.exec(pattern);
  if (shorthand) {
    const c = shorthand[0][1];
    const flipped = c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
    out.push([`regex \\${c} to \\${flipped}`, literal(`${pattern.slice(0, shorthand.index)}\\${flipped}${pattern.slice(shorthand.index + 2)}`, flags)]);
  }
  const open = /(?<!\\)\[(?!\^)/.exec(pattern);
  if (open) out.push(["regex class negated", literal(`${pattern.slice(0, open.index + 1)}^${pattern.slice(open.index + 1)}`, flags)]);
  return out;
}

function isCall(expr) {
  const e = expr.type === "AwaitExpression" ? expr.argument : expr;
  return e.type === "CallExpression" || (e.type === "ChainExpression" && e.expression.type === "CallExpression");
}

function isFunction(node) {
  return node && /Function|Method/.test(node.type);
}

/** A string that names rather than says: a property key, an import or export source, a directive. */
function isName(node, parent) {
  if (!parent) return false;
  if ((parent.type === "Property" || parent.type === "PropertyDefinition" || parent.type === "MethodDefinition") && parent.key === node && !parent.computed)
    return true;
  if (parent.type === "ExpressionStatement" && parent.directive) return true;
  return ["ImportExpression", "ExportNamedDeclaration", "TSLiteralType", "TSExternalModuleReference"].includes(parent.type);
}

/** Where the operator of `a op b` is: between the operands, past any parentheses and comments. */
function operatorSpan(source, node) {
  const between = source.slice(node.left.end, node.right.start);
  const at = between.indexOf(node.operator);
  if (at < 0) return undefined;
  // `a < b` must not match the `<` of `<=`: the operator is the whole token.
  const next = between[at + node.operator.length];
  if (next && "=<>&|?".includes(next) && node.operator.length === 1) return undefined;
  return { start: node.left.end + at, end: node.left.end + at + node.operator.length };
}

function walk(node, parent, fn) {
  if (!node || typeof node.type !== "string" || SKIPPED.has(node.type)) return;
  // Types in expressions (`x as T`, `x satisfies T`, `f<T>()`) are left out by the keys below.
  fn(node, parent);
  for (const [key, value] of Object.entries(node)) {
    if (key === "typeAnnotation" || key === "returnType" || key === "typeArguments" || key === "typeParameters" || key === "decorators") continue;
    if (Array.isArray(value)) for (const child of value) walk(child, node, fn);
    else if (value && typeof value === "object") walk(value, node, fn);
  }
}

function lineStarts(source) {
  const starts = [0];
  for (let i = 0; i < source.length; i++) if (source[i] === "\n") starts.push(i + 1);
  return starts;
}

function position(starts, offset) {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - starts[lo] + 1 };
}
