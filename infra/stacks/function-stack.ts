import type { Stack, StackProps } from 'aws-cdk-lib';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Alarms } from '../constructs/alarms';
import type { Platform } from '../constructs/parley-function';

/** What every stack that holds functions is given: the shared resources and the alarm topic. */
export interface FunctionStackProps extends StackProps {
  platform: Omit<Platform, 'alarms' | 'failureGroup'>;
  alarmTopic: ITopic;
}

/**
 * The platform for the functions of one stack, whose alarms belong to that stack. Their failures count towards
 * the alarm of `failureGroup` (a stack name): the stack's own unless it says otherwise.
 */
export const stackPlatform = (stack: Stack, props: FunctionStackProps, failureGroup = stack.stackName): Platform => ({
  ...props.platform,
  alarms: new Alarms(stack, 'Alarms', props.alarmTopic),
  failureGroup,
});
