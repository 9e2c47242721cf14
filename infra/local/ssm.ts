import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Pluggable } from '@smithy/types';
import { registerClientPlugin } from '../../shared/aws/plugins';
import { writeWhole } from './write-whole';

/**
 * The local runtime's Parameter Store: answers the GetParameter, PutParameter and DeleteParameter calls of the
 * code's own SSM client in process, behind the IAM guard (so a function reaches a parameter only with its
 * grant), with SSM's errors (`ParameterNotFound`, `ParameterAlreadyExists`). Parameters live in memory, or in
 * an owner-only file when the runtime has a data folder. Only this runtime loads it: deployed functions call SSM.
 */
const parameters = new Map<string, string>();
let file: string | undefined;

const ssmError = (name: string, message: string) =>
  Object.assign(new Error(message), { name, $fault: 'client', $service: 'ssm', $metadata: { httpStatusCode: 400 } });

const save = () => {
  if (file) writeWhole(file, JSON.stringify(Object.fromEntries(parameters)), 0o600);
};

type Input = { Name?: string; Value?: string; Overwrite?: boolean };

const answer = (command: string, input: Input) => {
  const name = input.Name ?? '';
  switch (command) {
    case 'GetParameterCommand': {
      const value = parameters.get(name);
      if (value === undefined) throw ssmError('ParameterNotFound', '');
      return { Parameter: { Name: name, Type: 'SecureString', Value: value, Version: 1 } };
    }
    case 'PutParameterCommand':
      if (parameters.has(name) && !input.Overwrite)
        throw ssmError(
          'ParameterAlreadyExists',
          'The parameter already exists. To overwrite this value, set the overwrite option in the request to true.',
        );
      parameters.set(name, input.Value ?? '');
      save();
      return { Version: 1, Tier: 'Standard' };
    case 'DeleteParameterCommand':
      if (!parameters.delete(name)) throw ssmError('ParameterNotFound', '');
      save();
      return {};
    default:
      throw ssmError(
        'UnsupportedOperationException',
        `The local parameter store answers Get, Put and DeleteParameter only, not ${command}`,
      );
  }
};

const ssmPlugin: Pluggable<any, any> = {
  applyToStack: (stack) => {
    stack.add(
      (next, context) => async (args) => {
        if (context.clientName !== 'SSMClient') return next(args);
        const output = answer(String(context.commandName), args.input as Input);
        return { output: { ...output, $metadata: { httpStatusCode: 200 } }, response: { statusCode: 200, headers: {} } };
      },
      // After the IAM guard (build, high), before anything is signed or sent.
      { step: 'build', name: 'parleyLocalSsm', priority: 'low' },
    );
  },
};

let installed = false;

/** Answers SSM calls in process from now on (idempotent); with `persistTo`, parameters are kept in that file across runs. */
export const installLocalSsm = (persistTo?: string): void => {
  if (persistTo && persistTo !== file) {
    file = persistTo;
    mkdirSync(dirname(file), { recursive: true });
    if (existsSync(file))
      for (const [name, value] of Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>))
        parameters.set(name, value);
  }
  if (installed) return;
  installed = true;
  registerClientPlugin(ssmPlugin);
};
