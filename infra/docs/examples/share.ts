interface Media {
  example?: unknown;
  examples?: Record<string, { $ref: string }>;
}
interface Operation {
  operationId?: string;
  requestBody?: { content: Record<string, Media> };
  responses?: Record<string, { content?: Record<string, Media> }>;
}
interface Document {
  paths?: Record<string, Record<string, Operation>>;
  components?: { examples?: Record<string, { value: unknown }> };
}

/**
 * States once, in `components/examples`, each example several operations show (the conversation that
 * getting, changing, assigning and closing one all answer), and refers to it from each.
 */
export const shareExamples = <D extends object>(document: D): D => {
  const doc = document as Document;
  const uses = new Map<string, { name: string; media: Media[] }>();
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item)) {
      const media = [
        ...Object.values(op.responses ?? {}).map((r) => [r.content?.['application/json'], 'Answer'] as const),
        [op.requestBody?.content['application/json'], 'Body'] as const,
      ];
      for (const [json, kind] of media) {
        if (json?.example === undefined) continue;
        const text = JSON.stringify(json.example);
        const use = uses.get(text) ?? { name: `${op.operationId}${kind}`, media: [] };
        use.media.push(json);
        uses.set(text, use);
      }
    }
  }
  const shared: Record<string, { value: unknown }> = {};
  for (const { name, media } of uses.values()) {
    if (media.length < 2) continue;
    shared[name] = { value: media[0]!.example };
    for (const json of media) {
      delete json.example;
      json.examples = { [name]: { $ref: `#/components/examples/${name}` } };
    }
  }
  doc.components = { ...doc.components, examples: shared };
  return document;
};
