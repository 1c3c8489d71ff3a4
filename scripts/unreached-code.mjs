// Code the shipped bundles carry although nothing we run reaches it, left out the way esbuild.mjs's noAjv
// leaves ajv out: SDK and zod code in dist/protocol.js, jsonc-parser's enums in the extension and the CLI.
// Each part names what it leaves out and why nothing reaches it, and fails the build when the package text
// it expects is not there exactly once (an SDK, zod or jsonc-parser update is then reviewed, never cut
// blindly) or when the bundle serves a name it takes away. test/static/bundle.test.ts checks the built
// bundles and that no source calls what is left out; test/integration/cli-eras.test.ts what the Client
// still reads, against a real server.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/**
 * Marks and rewrites in the client package's chunks (`dist/src-*.mjs`, the SDK's core-internal compiled
 * in, and `dist/public-*.mjs`, the Client). esbuild drops a top-level value nobody reads unless computing
 * it may have an effect (a call, a property read). Each value below is computed by a function marked
 * pure: dropped while nothing reads it, computed as before, at the same point of loading, the moment
 * anything does; so a mark never takes a value away from a reader.
 */
export const SDK_CUTS = {
  src: [
    {
      // The server's builder for multi-round-trip results (`inputRequired.elicit(...)`), not exported by the
      // client package. Object.assign kept it, and with it the conversion of a zod schema to an
      // elicitation's JSON Schema, the only caller of zod's JSON Schema output.
      why: 'inputRequired, a server-side result builder',
      find: 'const inputRequired = Object.assign(buildInputRequired, {',
      replace: 'const inputRequired = /* @__PURE__ */ Object.assign(buildInputRequired, {',
    },
    {
      // A server's table of how it validates incoming HTTP requests, a paragraph of rationale per row;
      // reading `ProtocolErrorCode.X` in it kept it.
      why: 'INBOUND_VALIDATION_LADDER, a server-side table',
      find: 'const INBOUND_VALIDATION_LADDER = [',
      replace: 'const INBOUND_VALIDATION_LADDER = /* @__PURE__ */ (() => [',
    },
    {
      why: 'the end of INBOUND_VALIDATION_LADDER',
      find: '\n];\n/**\n* HTTP status for ladder-originated JSON-RPC error codes.',
      replace: '\n])();\n/**\n* HTTP status for ladder-originated JSON-RPC error codes.',
    },
    {
      // `specTypeSchemas` / `isSpecType`: a validator per spec type, for callers' own checks. Two loops
      // filled them at load time, keeping every schema by name; they now run when either value is made.
      why: 'the loops that fill specTypeSchemas and isSpecType',
      find: 'for (const key of SPEC_SCHEMA_KEYS) register(key, schemas_exports[key]);\nfor (const [key, schema] of Object.entries(authSchemas)) register(key, schema);',
      replace:
        'let specTypesFilled = false;\nfunction fillSpecTypes() {\n\tif (specTypesFilled) return;\n\tspecTypesFilled = true;\n\tfor (const key of SPEC_SCHEMA_KEYS) register(key, schemas_exports[key]);\n\tfor (const [key, schema] of Object.entries(authSchemas)) register(key, schema);\n}',
    },
    {
      why: 'specTypeSchemas',
      find: 'const specTypeSchemas = Object.freeze(_specTypeSchemas);',
      replace: 'const specTypeSchemas = /* @__PURE__ */ (() => (fillSpecTypes(), Object.freeze(_specTypeSchemas)))();',
    },
    {
      why: 'isSpecType',
      find: 'const isSpecType = Object.freeze(_isSpecType);',
      replace: 'const isSpecType = /* @__PURE__ */ (() => (fillSpecTypes(), Object.freeze(_isSpecType)))();',
    },
  ],
  public: [
    {
      // The Client's one use of isSpecType, written out: `isSpecType.Implementation` is
      // `v => ImplementationSchema.safeParse(v).success`, with the very schema core/internal exports.
      why: 'the Client reading isSpecType.Implementation',
      find: 'return isSpecType.Implementation(fromMeta) ? fromMeta : void 0;',
      replace: 'return ImplementationSchemaOfCore.safeParse(fromMeta).success ? fromMeta : void 0;',
    },
    {
      why: 'the import of that schema',
      find: 'import pkceChallenge from "pkce-challenge";\n',
      replace:
        'import pkceChallenge from "pkce-challenge";\nimport { ImplementationSchema as ImplementationSchemaOfCore } from "@modelcontextprotocol/core/internal";\n',
    },
  ],
};

/** `text` with every cut applied; throws when a cut's text is not there exactly once. */
export function applyCuts(text, cuts, file) {
  let out = text;
  for (const cut of cuts) {
    const at = out.indexOf(cut.find);
    if (at < 0 || out.indexOf(cut.find, at + 1) >= 0)
      throw new Error(
        `${file}: expected once: ${JSON.stringify(cut.find)} (${cut.why}); review scripts/unreached-code.mjs`,
      );
    out = out.slice(0, at) + cut.replace + out.slice(at + cut.find.length);
  }
  return out;
}

/**
 * The Client's tool methods. MCP Prompts never lists or calls tools (the reason noAjv can leave ajv out):
 * their bodies are replaced by one that throws, so the tool-header scan, output validators and tool
 * cache they alone use are left out. The SDK calls listTools itself only for a `listChanged.tools`
 * option, which we never pass.
 */
export const CLIENT_TOOL_METHODS = [
  'callTool',
  'listTools',
  '_excludeInvalidXMcpHeaderTools',
  '_compileOutputValidator',
  '_resolveXMcpHeaderScan',
];

/** `text` with the bodies of `methods` of the class assigned to `className` replaced; throws unless each is there once. */
export function standInMethods(text, className, methods, file) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const bodies = [];
  const visit = node => {
    if (
      ts.isMethodDeclaration(node) &&
      node.body &&
      methods.includes(node.name.getText(source)) &&
      ts.isClassLike(node.parent) &&
      (node.parent.name?.text ??
        (ts.isVariableDeclaration(node.parent.parent) && node.parent.parent.name.getText(source))) === className
    )
      bodies.push({ name: node.name.getText(source), start: node.body.getStart(source), end: node.body.end });
    ts.forEachChild(node, visit);
  };
  visit(source);
  const counts = methods.map(m => bodies.filter(b => b.name === m).length);
  if (counts.some(c => c !== 1))
    throw new Error(
      `${file}: expected ${className}.${methods.join(', ')} once each, found ${counts.join(', ')}; review scripts/unreached-code.mjs`,
    );
  let out = text;
  for (const b of bodies.sort((x, y) => y.start - x.start))
    out = `${out.slice(0, b.start)}{ throw new Error("MCP Prompts does not bundle ${className}.${b.name}"); }${out.slice(b.end)}`;
  return out;
}

/** The SDK cuts as an esbuild plugin: each chunk of the client package gets its cuts, and each chunk must be met. */
export function sdkUnreached() {
  return {
    name: 'sdk-unreached',
    setup(build) {
      const met = new Set();
      build.onLoad(
        { filter: /[\\/]@modelcontextprotocol[\\/]client[\\/]dist[\\/](src|public)-[^\\/]+\.mjs$/ },
        args => {
          const chunk = /(src|public)-[^\\/]+\.mjs$/.exec(args.path)[1];
          met.add(chunk);
          const cut = applyCuts(fs.readFileSync(args.path, 'utf8'), SDK_CUTS[chunk], args.path);
          return {
            loader: 'js',
            contents: chunk === 'public' ? standInMethods(cut, 'Client', CLIENT_TOOL_METHODS, args.path) : cut,
          };
        },
      );
      build.onEnd(result => {
        const missed = Object.keys(SDK_CUTS).filter(c => !met.has(c));
        if (!result.errors.length && missed.length)
          throw new Error(`no client chunk ${missed.join(', ')}-*.mjs was bundled; review scripts/unreached-code.mjs`);
      });
    },
  };
}

/** zod's names that lead to the JSON Schema output left out below (`core` holds every internal module). */
const ZOD_JSON_SCHEMA_NAMES = ['toJSONSchema', 'core'];
/** What zod schemas read of the processors module while parsing: string and number limits (`minLength`, …). */
const KEPT = ['aggregateChecks'];

/**
 * zod's JSON Schema output: `toJSONSchema`, each schema's `.toJSONSchema()` and `~standard.jsonSchema`. A
 * client parses with zod schemas and never turns one into JSON Schema (the SDK does only for a server's
 * tool and elicitation schemas, cut above). The two modules are replaced by stand-ins made from their
 * export lists: factories return, and every other function throws when called; `aggregateChecks` stays.
 */
export function zodWithoutJsonSchema(zodNames) {
  return {
    name: 'zod-without-json-schema',
    setup(build) {
      const taken = ZOD_JSON_SCHEMA_NAMES.filter(n => zodNames.includes(n));
      if (taken.length)
        throw new Error(`zod's JSON Schema output is left out, but the bundle serves ${taken.join(', ')}`);
      build.onResolve({ filter: /^\.\.?\/.*(json-schema-processors|to-json-schema)\.js$/ }, args =>
        /[\\/]zod[\\/]v4[\\/]/.test(args.importer) && args.namespace === 'file'
          ? { path: path.resolve(args.resolveDir, args.path), namespace: 'zod-without-json-schema' }
          : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'zod-without-json-schema' }, async args => ({
        loader: 'js',
        resolveDir: path.dirname(args.path),
        contents: standIn(args.path, Object.keys(await import(pathToFileURL(args.path).href))),
      }));
    },
  };
}

/** The stand-in module for `file`, which exports `names`. */
function standIn(file, names) {
  const lines = ["const left = () => { throw new Error('MCP Prompts leaves out JSON Schema output of zod'); };"];
  for (const name of names) {
    if (KEPT.includes(name)) lines.push(`export { ${name} } from ${JSON.stringify(file)};`);
    else if (/^create.*Method$/.test(name)) lines.push(`export const ${name} = () => left;`);
    else lines.push(`export const ${name} = left;`);
  }
  return lines.join('\n');
}

/**
 * Methods of zod's schema classes that nothing in the shipped bundles calls (`.email()`, `.uuid()`,
 * `.nullable()`, `.gt()`, …). A method on a prototype keeps the schema class, check or pattern it builds
 * though nobody calls it; each is left out of zod/v4/classic/schemas.js, and esbuild.mjs fails the build
 * when a shipped bundle reads one of these names (zodMethodsRead), zod's own code included.
 */
const ZOD_UNCALLED_METHODS = {
  ZodType: [
    ...['brand', 'overwrite', 'exactOptional', 'nullable', 'nullish', 'nonoptional', 'and', 'prefault'],
    ...['readonly', 'isOptional', 'isNullable', 'safeParseAsync', 'spa', 'validateAsync', 'encodeAsync'],
    ...['decodeAsync', 'safeEncode', 'safeDecode', 'safeEncodeAsync', 'safeDecodeAsync', '_def'],
  ],
  _ZodString: ['nonempty', 'lowercase', 'uppercase', 'slugify'],
  ZodString: [
    ...['email', 'jwt', 'emoji', 'guid', 'uuid', 'uuidv4', 'uuidv6', 'uuidv7', 'nanoid', 'cuid', 'cuid2'],
    ...['ulid', 'base64', 'base64url', 'xid', 'ksuid', 'ipv4', 'ipv6', 'cidrv4', 'cidrv6', 'e164'],
    ...['date', 'time', 'duration'],
  ],
  ZodNumber: [
    ...['minValue', 'maxValue', 'gt', 'gte', 'lt', 'lte', 'safe', 'positive', 'negative', 'nonpositive'],
    ...['finite'],
  ],
  ZodBigInt: ['minValue', 'maxValue', 'gte', 'gt', 'lt', 'lte', 'positive', 'negative', 'nonpositive'],
  ZodDate: ['minDate', 'maxDate'],
  ZodArray: ['nonempty'],
  ZodObject: ['keyof', 'passthrough', 'exactPartial'],
};

/**
 * zod's classic schemas read its util module as a value (`import { util }`, `core.util.constantCatch`),
 * which keeps every util function in the bundle; read as that module's own namespace, the same object,
 * esbuild keeps the functions called.
 */
const ZOD_UTIL_CUTS = [
  {
    why: 'util imported as a value',
    find: 'import { util } from "../core/index.js";',
    replace: 'import * as util from "../core/util.js";',
  },
  { why: 'util read through core', find: 'core.util.constantCatch(', replace: 'util.constantCatch(' },
];

/** `text` without the methods `table` names per `$constructor("Name", init, methods)`; throws unless each is there. */
function leaveOutMethods(text, table, file) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found = new Set();
  const cuts = [];
  const visit = node => {
    if (ts.isCallExpression(node) && /\$constructor$/.test(node.expression.getText(source)) && node.arguments[2]) {
      const name = ts.isStringLiteral(node.arguments[0]) ? node.arguments[0].text : '';
      const methods = node.arguments[2];
      // The methods object, or the second argument of `util.derived(getters, methods)`.
      const objects = (ts.isCallExpression(methods) ? methods.arguments : [methods]).filter(
        ts.isObjectLiteralExpression,
      );
      for (const property of objects.flatMap(o => o.properties)) {
        const key =
          property.name && (ts.isStringLiteral(property.name) ? property.name.text : property.name.getText(source));
        if (!table[name]?.includes(key)) continue;
        found.add(`${name}.${key}`);
        cuts.push({ start: property.getFullStart(), end: property.end + (text[property.end] === ',' ? 1 : 0) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  const missing = Object.entries(table).flatMap(([c, ms]) => ms.map(m => `${c}.${m}`).filter(m => !found.has(m)));
  if (missing.length) throw new Error(`${file}: expected ${missing.join(', ')}; review scripts/unreached-code.mjs`);
  let out = text;
  for (const c of cuts.sort((x, y) => y.start - x.start)) out = out.slice(0, c.start) + out.slice(c.end);
  return out;
}

/**
 * The zod methods left out (ZOD_UNCALLED_METHODS) that `text` reads: `.email`, `["email"]`; not a spread
 * of a variable the minifier happened to name so (`...gt(x)`).
 */
export function zodMethodsRead(text) {
  const names = [...new Set(Object.values(ZOD_UNCALLED_METHODS).flat())];
  return names.filter(n => new RegExp(`(?<!\\.\\.)\\.${n}\\b|\\[["'\`]${n}["'\`]\\]`).test(text));
}

/** zod's classic schemas without ZOD_UNCALLED_METHODS, reading util as its own namespace. */
export const zodUncalledMethods = {
  name: 'zod-uncalled-methods',
  setup(build) {
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]classic[\\/]schemas\.js$/ }, args => {
      const text = applyCuts(fs.readFileSync(args.path, 'utf8'), ZOD_UTIL_CUTS, args.path);
      return { loader: 'js', contents: leaveOutMethods(text, ZOD_UNCALLED_METHODS, args.path) };
    });
  },
};

/**
 * zod's `z.iso` and `z.coerce` are namespaces, and a namespace keeps every member: ISO time and duration,
 * bigint, date and boolean coercion, their classes and patterns. The SDK reads the members named here
 * alone; each namespace is served by a stand-in with those taken from zod and the others throwing. The
 * build fails when a bundled SDK module reads another member, or our sources use either namespace.
 */
const ZOD_NAMESPACES_READ = { iso: ['datetime', 'date'], coerce: ['number'] };

export function zodNamespacesRead(zodNames) {
  const namespaces = Object.keys(ZOD_NAMESPACES_READ);
  return {
    name: 'zod-namespaces-read',
    setup(build) {
      const taken = namespaces.filter(n => zodNames.includes(n));
      if (taken.length) throw new Error(`zod's ${taken.join(', ')} are served in part, but the bundle serves them`);
      const cuts = namespaces.map(n => ({
        why: `z.${n}`,
        find: `export * as ${n} from "./${n}.js";`,
        replace: `export * as ${n} from "zod-namespace:${n}";`,
      }));
      build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]classic[\\/]external\.js$/ }, args => ({
        loader: 'js',
        contents: applyCuts(fs.readFileSync(args.path, 'utf8'), cuts, args.path),
      }));
      build.onResolve({ filter: /^zod-namespace:/ }, args => ({
        path: path.join(args.resolveDir, `${args.path.slice('zod-namespace:'.length)}.js`),
        namespace: 'zod-namespace',
      }));
      build.onLoad({ filter: /.*/, namespace: 'zod-namespace' }, async args => {
        const namespace = path.basename(args.path, '.js');
        const lines = [
          `const left = () => { throw new Error("MCP Prompts leaves out members of zod's z.${namespace}"); };`,
        ];
        for (const name of Object.keys(await import(pathToFileURL(args.path).href)))
          lines.push(
            ZOD_NAMESPACES_READ[namespace].includes(name)
              ? `export { ${name} } from ${JSON.stringify(args.path)};`
              : `export const ${name} = left;`,
          );
        return { loader: 'js', resolveDir: path.dirname(args.path), contents: lines.join('\n') };
      });
      build.onEnd(result => {
        if (result.errors.length) return;
        const sdk = Object.keys(result.metafile.inputs).filter(i =>
          /node_modules[\\/]@modelcontextprotocol[\\/]/.test(i),
        );
        const read = sdk.flatMap(i =>
          [...fs.readFileSync(i, 'utf8').matchAll(/\bz\.(iso|coerce)\.(\w+)/g)]
            .filter(m => !ZOD_NAMESPACES_READ[m[1]].includes(m[2]))
            .map(m => `${i} reads z.${m[1]}.${m[2]}`),
        );
        if (read.length) throw new Error(`${read.join('; ')}: review scripts/unreached-code.mjs`);
      });
    },
  };
}

/**
 * `text`, a module of constants, with each constant computed by a function marked pure: dropped while
 * nothing reads it, computed as before, at the same point of loading, when anything does. Throws on any
 * other statement at the top (an effect there would need a look).
 */
function pureConstants(text, file) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const edits = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement) || ts.isFunctionDeclaration(statement))
      continue;
    if (!ts.isVariableStatement(statement))
      throw new Error(`${file}: a statement not a constant: ${statement.getText(source).slice(0, 80)}`);
    for (const { initializer: value } of statement.declarationList.declarations) {
      if (!value || ts.isLiteralExpression(value) || ts.isIdentifier(value) || ts.isArrowFunction(value)) continue;
      edits.push({ at: value.getStart(source), insert: '/* @__PURE__ */ (() => (' }, { at: value.end, insert: '))()' });
    }
  }
  let out = text;
  for (const e of edits.sort((x, y) => y.at - x.at)) out = out.slice(0, e.at) + e.insert + out.slice(e.at);
  return out;
}

/** The modules of the SDK's schemas: each schema made at load time, and kept, read or not. */
const SCHEMA_MODULES =
  /[\\/]@modelcontextprotocol[\\/]core[\\/]dist[\\/]((schemas|auth)-[^\\/]+|ext[\\/]skills[\\/]index)\.mjs$/;

/**
 * The SDK's schemas (`@modelcontextprotocol/core`: the protocol's, OAuth's, skills'), of which the
 * client reads less than half: it checks messages with each protocol revision's own schemas (the
 * codecs'), so the server's requests and results, tasks and sampling here stay out.
 */
export function schemasRead() {
  return {
    name: 'schemas-read',
    setup(build) {
      const met = new Set();
      build.onLoad({ filter: SCHEMA_MODULES }, args => {
        met.add(SCHEMA_MODULES.exec(args.path)[1].replace(/-.*/, '').replace(/\\/g, '/'));
        return { loader: 'js', contents: pureConstants(fs.readFileSync(args.path, 'utf8'), args.path) };
      });
      build.onEnd(result => {
        const missed = ['schemas', 'auth', 'ext/skills/index'].filter(m => !met.has(m));
        if (!result.errors.length && missed.length)
          throw new Error(`no core module ${missed.join(', ')} was bundled; review scripts/unreached-code.mjs`);
      });
    },
  };
}

/** A TypeScript enum as its compiler writes it: `var E; (function (E) { … })(E || (E = {}));`. */
const TS_ENUM = /^(export )?var (\w+);\n\(function \(\2\) \{\n([\s\S]*?)\n\}\)\(\2 \|\| \(\2 = \{\}\)\);$/gm;

/**
 * `text` with each TypeScript enum written as a value computed by a function marked pure: dropped while
 * nothing reads it, built as before the moment anything does. Throws when an enum's opening is left over.
 */
export function pureEnums(text, file) {
  const out = text.replace(TS_ENUM, '$1var $2 = /* @__PURE__ */ (function ($2) {\n$3\n    return $2;\n})({});');
  if (/^\}\)\(\w+ \|\| \(\w+ = \{\}\)\);$/m.test(out)) throw new Error(`${file}: an enum was not rewritten`);
  return out;
}

/**
 * jsonc-parser's enums (`CharacterCodes`, `SyntaxKind`, `ScanError`, `ParseErrorCode`): its own code
 * uses their numbers inlined, and we use none of them, but each is filled by a call at load time.
 */
export const jsoncEnums = {
  name: 'jsonc-enums',
  setup(build) {
    build.onLoad({ filter: /[\\/]jsonc-parser[\\/]lib[\\/]esm[\\/].*\.js$/ }, args => ({
      loader: 'js',
      contents: pureEnums(fs.readFileSync(args.path, 'utf8'), args.path),
    }));
  },
};
