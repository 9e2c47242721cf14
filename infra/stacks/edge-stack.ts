import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import type { Stage } from '../stage';

/** CloudFront only takes a web ACL of scope CLOUDFRONT, and those exist only in us-east-1. */
export const EDGE_REGION = 'us-east-1';

/** Requests one client IP may make in any 5 minutes before WAF blocks it (10 a second on average, far above the per-token limits). */
export const EDGE_RATE_LIMIT = 3000;

const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true,
  metricName,
  sampledRequestsEnabled: true,
});

export interface EdgeStackProps extends StackProps {
  stage: Stage;
}

/**
 * The WAF in front of the site and the API: a per-IP rate-based rule and AWS's managed IP reputation list,
 * so a flood is refused at CloudFront before it costs a Lambda run or a table write. Deployed in us-east-1
 * whatever the app's region; the site stack reads the ACL's ARN through a cross-region reference.
 */
export class EdgeStack extends Stack {
  readonly webAclArn: string;

  constructor(scope: Construct, id: string, props: EdgeStackProps) {
    super(scope, id, { ...props, crossRegionReferences: true });
    const acl = new CfnWebACL(this, 'WebAcl', {
      name: `parley-${props.stage.name}-edge`,
      description: `Parley ${props.stage.name}: per-IP rate limit and AWS IP reputation in front of CloudFront`,
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(`parley-${props.stage.name}-edge`),
      rules: [
        {
          name: 'RateLimitPerIp',
          priority: 0,
          action: { block: {} },
          statement: { rateBasedStatement: { limit: EDGE_RATE_LIMIT, evaluationWindowSec: 300, aggregateKeyType: 'IP' } },
          visibilityConfig: visibility('RateLimitPerIp'),
        },
        {
          name: 'AwsIpReputation',
          priority: 1,
          overrideAction: { none: {} },
          statement: { managedRuleGroupStatement: { vendorName: 'AWS', name: 'AWSManagedRulesAmazonIpReputationList' } },
          visibilityConfig: visibility('AwsIpReputation'),
        },
      ],
    });
    this.webAclArn = acl.attrArn;
    new CfnOutput(this, 'WebAclArn', { value: acl.attrArn, description: 'The WAF web ACL in front of CloudFront' });
  }
}
