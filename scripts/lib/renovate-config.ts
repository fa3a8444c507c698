/**
 * renovate.json held to Renovate's own configuration schema, as SchemaStore publishes it (the TypeScript
 * declarations of `@schemastore/renovate`, generated from the schema of a named Renovate release): every
 * option, at the top and in each package rule, must be one the schema names, and a value the schema lists
 * choices for must be one of them. Renovate's own validator (`renovate-config-validator`) comes only with the
 * whole of Renovate, too large to install for one check (decision 0114).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from '@portal/dev-stack';

export const RENOVATE_CONFIG = path.join(REPO_ROOT, 'renovate.json');

const declarations = createRequire(import.meta.url).resolve('@schemastore/renovate/index.d.ts');

/** The schema's root type: the interface whose name is the generated prefix and nothing after it. */
function rootType(checker: ts.TypeChecker, file: ts.SourceFile): ts.Type {
  const root = file.statements.find(
    (statement): statement is ts.InterfaceDeclaration =>
      ts.isInterfaceDeclaration(statement) &&
      /^JSONSchemaForRenovate\d*ConfigFilesHttpsRenovatebotCom$/.test(statement.name.text),
  );
  if (!root) throw new Error(`${declarations}: no root configuration interface`);
  return checker.getTypeAtLocation(root);
}

/** The string literals a type allows, or undefined when it allows any string (or is not a string type). */
function stringChoices(type: ts.Type): Set<string> | undefined {
  const parts = type.isUnion() ? type.types : [type];
  const literals = parts.filter((part) => part.isStringLiteral()) as ts.StringLiteralType[];
  const open = parts.some((part) => part.flags & ts.TypeFlags.String);
  return literals.length > 0 && !open ? new Set(literals.map((literal) => literal.value)) : undefined;
}

function withoutNullish(checker: ts.TypeChecker, type: ts.Type): ts.Type {
  return checker.getNonNullableType(type);
}

/**
 * Problems of `value` against `type`, at `where` (a JSON path). An object type that takes further keys (the
 * schema's package rules: their own matchers, plus any option of the configuration) takes the options of
 * `options`, the root.
 */
function problemsOf(checker: ts.TypeChecker, value: unknown, type: ts.Type, where: string, options: ts.Type): string[] {
  const solid = withoutNullish(checker, type);
  if (Array.isArray(value)) {
    const element = checker.isArrayType(solid) ? checker.getTypeArguments(solid as ts.TypeReference)[0] : undefined;
    return element
      ? value.flatMap((item, index) => problemsOf(checker, item, element, `${where}[${index}]`, options))
      : [];
  }
  if (typeof value === 'string') {
    const choices = stringChoices(solid);
    return choices && !choices.has(value) ? [`${where}: "${value}" is not one of ${[...choices].join(', ')}`] : [];
  }
  if (value && typeof value === 'object') {
    const objectParts = (solid.isUnion() ? solid.types : [solid]).filter(
      (part) => part.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection) && !checker.isArrayType(part),
    );
    if (objectParts.length === 0) return [];
    const open = objectParts.some((part) => checker.getIndexInfoOfType(part, ts.IndexKind.String));
    const known = new Map(
      [
        ...(open ? checker.getPropertiesOfType(options) : []),
        ...objectParts.flatMap((part) => checker.getPropertiesOfType(part)),
      ].map((symbol) => [symbol.name, symbol]),
    );
    return Object.entries(value).flatMap(([key, item]) => {
      if (key === '$schema') return [];
      const symbol = known.get(key);
      if (!symbol) return [`${where}.${key}: not an option Renovate knows`];
      return problemsOf(checker, item, checker.getTypeOfSymbol(symbol), `${where}.${key}`, options);
    });
  }
  return [];
}

/** What is wrong with a Renovate configuration (the parsed JSON); empty when nothing is. */
export function renovateConfigProblems(config: unknown): string[] {
  const program = ts.createProgram([declarations], { noEmit: true, strict: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(declarations);
  if (!file) throw new Error(`${declarations}: not found`);
  const root = rootType(checker, file);
  return problemsOf(checker, config, root, 'renovate.json', root);
}

export function readRenovateConfig(): unknown {
  return JSON.parse(readFileSync(RENOVATE_CONFIG, 'utf8'));
}
