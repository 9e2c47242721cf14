import * as z from 'zod';
import { built } from '../domain/built';

/**
 * Reads stored items as an entity's schema describes them: the schema's fields only, parsed rather than
 * cast, so an item that does not hold the entity fails at the read instead of further on. An absent field
 * the schema does not allow to be absent reads as null (items store no attribute for an unset field). Given
 * a function, the schema is built at the first read, not at import.
 */
export const itemCodec = <S extends z.ZodObject>(schemaOf: S | (() => S)) => {
  let codec: { schema: S; fields: { name: string; absent: null | undefined }[] } | undefined;
  const codecOf = () => {
    if (!codec) {
      const schema = typeof schemaOf === 'function' ? schemaOf() : schemaOf;
      const fields = Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => ({
        name,
        absent: field.safeParse(undefined).success ? undefined : null,
      }));
      codec = { schema, fields };
    }
    return codec;
  };
  return (item: Record<string, unknown>): z.output<S> => {
    const { schema, fields } = codecOf();
    return schema.parse(Object.fromEntries(fields.map(({ name, absent }) => [name, item[name] ?? absent])));
  };
};

const primaryKey = /* @__PURE__ */ built(() => z.object({ pk: z.string(), sk: z.string() }));

/** The primary key of an item as it was read, whatever its kind: to delete what a partition holds. */
export const storedKey = (item: Record<string, unknown>): { pk: string; sk: string } => primaryKey.parse(item);
