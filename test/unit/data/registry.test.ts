import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { entities } from '../../../shared/data/registry/entities';
import { EVENT_ITEM_TYPE } from '../../../shared/data/table';

const root = resolve(import.meta.dirname, '..', '..', '..');
const declared: string[] = entities.flatMap((e): readonly string[] => e.prefixes);
const KEY_ATTRIBUTES = new Set(['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'skPrefix']);
/** Text that spells a key segment: an upper-case word joined to `#` on either side. */
const SPELLED_SEGMENT = /(^|#)[A-Z][A-Z0-9_]*#|#[A-Z][A-Z0-9_]*(#|$)/;

const sources = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sources(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );

/** Literal text the code (not its comments) uses as a key, or a part of one, in `file`. */
const spelledKeys = (file: string): string[] => {
  const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const bare = (n: ts.Node) => (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) && /^[A-Z][A-Z0-9_]+$/.test(n.text);
  const visit = (n: ts.Node): void => {
    if (
      ts.isStringLiteral(n) ||
      ts.isNoSubstitutionTemplateLiteral(n) ||
      ts.isTemplateHead(n) ||
      ts.isTemplateMiddle(n) ||
      ts.isTemplateTail(n)
    ) {
      if (SPELLED_SEGMENT.test(n.text)) found.push(n.text);
    }
    if (ts.isPropertyAssignment(n) && KEY_ATTRIBUTES.has(n.name.getText(source)) && bare(n.initializer))
      found.push(n.initializer.getText(source));
    if (ts.isCallExpression(n) && n.expression.getText(source) === 'tenantPk')
      found.push(...n.arguments.filter(bare).map((a) => a.getText(source)));
    ts.forEachChild(n, visit);
  };
  visit(source);
  return found.map((text) => `${file}: ${text}`);
};

/** The `type` values of the items the code in `file` writes: `type: 'X'` in an object literal, or a constant named `…_TYPE`. */
const writtenTypes = (file: string): string[] => {
  const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const constants = new Map<string, string>();
  const found: string[] = [];
  const visit = (n: ts.Node): void => {
    if (
      ts.isVariableDeclaration(n) &&
      ts.isIdentifier(n.name) &&
      n.name.text.endsWith('_TYPE') &&
      n.initializer &&
      ts.isStringLiteral(n.initializer)
    )
      constants.set(n.name.text, n.initializer.text);
    if (ts.isPropertyAssignment(n) && n.name.getText(source) === 'type' && ts.isObjectLiteralExpression(n.parent)) {
      const v = n.initializer;
      if (ts.isStringLiteral(v) && /^[A-Z][A-Z0-9_]+$/.test(v.text)) found.push(v.text);
      if (ts.isIdentifier(v) && v.text.endsWith('_TYPE')) found.push(`@${v.text}`);
    }
    ts.forEachChild(n, visit);
  };
  visit(source);
  return found.map((t) => (t.startsWith('@') ? (constants.get(t.slice(1)) ?? EVENT_ITEM_TYPE) : t));
};

describe('the key registry', () => {
  it('declares each key segment once', () => {
    expect(declared.filter((p, i) => declared.indexOf(p) !== i)).toEqual([]);
  });

  it('declares each item type once, and every item type the code writes', () => {
    const types = entities.flatMap((e) => e.itemTypes);
    expect(types.filter((t, i) => types.indexOf(t) !== i)).toEqual([]);
    const files = sources('shared').filter((f) => !f.startsWith(join('shared', 'data', 'registry')));
    const written = [...new Set(files.flatMap(writtenTypes))].sort();
    expect(written.length).toBeGreaterThan(40);
    expect(written.filter((t) => !types.includes(t))).toEqual([]);
    expect(types.filter((t) => !written.includes(t))).toEqual([]);
  });

  it('names the personal-data attributes of every entity, and a declared schema holds each one', () => {
    for (const e of entities) {
      expect(Array.isArray(e.personal), e.name).toBe(true);
      if ('schema' in e) expect(e.personal.filter((a) => !(a in e.schema.shape) && !(a in e.keys))).toEqual([]);
    }
    expect(entities.filter((e) => e.personal.length).map((e) => e.name)).toContain('Customer');
  });

  it('shows every declared segment in a key shape or access pattern, and declares every segment they show', () => {
    const shapes = entities.flatMap((e) => [...Object.values(e.keys), ...e.patterns.map((p) => p.by)]);
    const literal = (shape: string) => shape.replace(/\([^)]*\)|<[^>]*>[A-Z]*/g, ' ');
    const shown = new Set(shapes.flatMap((s) => literal(s).match(/\b[A-Z][A-Z0-9_]*\b/g) ?? []));
    expect(declared.filter((p) => !shown.has(p))).toEqual([]);
    expect([...shown].filter((p) => !declared.includes(p))).toEqual([]);
  });

  it('is the only place that spells a key segment: repositories, services and the IAM grants build keys from it', () => {
    const files = [...sources('shared'), ...sources('functions/wiring'), join('infra', 'grants.ts'), ...sources('infra/local')].filter(
      (f) => !f.startsWith(join('shared', 'data', 'registry')),
    );
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap(spelledKeys).map((f) => relative('.', f))).toEqual([]);
  });
});
