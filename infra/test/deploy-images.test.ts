/**
 * The apps' images as built and run outside a cluster: each app's Dockerfile (non-root final
 * stage, HEALTHCHECK, the Deployment's ports), docker-compose.yml, and the web image's nginx
 * configuration against the web Deployments of both overlays (docs/adr/0004-container-images-and-deploy.md).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'vitest';
import { parse } from 'yaml';
import { appDeployments, baseAppDeployments, containersOf } from './support/built-manifests';
import { dockerfileOf, dockerfileStages } from './support/dockerfiles';
import { overlayNames, repository } from './support/kustomize';

describe('Dockerfiles of the apps', () => {
  for (const deployment of baseAppDeployments) {
    const app = deployment.metadata.name;
    describe(app, () => {
      test('when its image is built without a target, then the final stage runs as a non-root user', () => {
        const final = dockerfileStages(dockerfileOf(app)).at(-1)!;
        const user = final.instructions.filter(([keyword]) => keyword === 'USER').at(-1)?.[1];
        assert.ok(user, `${app}: the final stage sets no USER`);
        assert.doesNotMatch(user, /^(root|0)(:|$)/, `${app}: USER ${user}`);
      });

      test('when its image runs, then it declares a HEALTHCHECK and exposes the port the Deployment uses', () => {
        const final = dockerfileStages(dockerfileOf(app)).at(-1)!;
        assert.ok(
          final.instructions.some(([keyword]) => keyword === 'HEALTHCHECK'),
          `${app}: HEALTHCHECK`,
        );
        const exposed = final.instructions
          .filter(([keyword]) => keyword === 'EXPOSE')
          .flatMap(([, ports]) => ports.split(/\s+/));
        const containerPorts = containersOf(deployment).flatMap(
          (container) => container.ports ?? [],
        );
        for (const port of containerPorts)
          assert.ok(
            exposed.includes(String(port.containerPort)),
            `${app}: EXPOSE ${port.containerPort}`,
          );
      });

      test('when its image runs Node, then it sets HOST=0.0.0.0 (the app alone listens on loopback only)', () => {
        const final = dockerfileStages(dockerfileOf(app)).at(-1)!;
        if (!final.image.startsWith('node:')) {
          console.log(`${app} is not a Node app`);
          return;
        }
        const environment = final.instructions
          .filter(([keyword]) => keyword === 'ENV')
          .flatMap(([, assignments]) => assignments.split(/\s+/));
        assert.ok(environment.includes('HOST=0.0.0.0'), `${app}: ENV HOST=0.0.0.0`);
      });

      test('when its Dockerfile is read, then the default target is the one image it ships (no other stage sets CMD or ENTRYPOINT), and a service with migrations carries what the migration Job runs', () => {
        const stages = dockerfileStages(dockerfileOf(app));
        const runnable = stages.filter((stage) =>
          stage.instructions.some(([keyword]) => keyword === 'CMD' || keyword === 'ENTRYPOINT'),
        );
        assert.ok(
          runnable.every((stage) => stage === stages.at(-1)),
          `${app}: stage ${runnable.map((stage) => stage.name).join(', ')} sets a command`,
        );
        if (!existsSync(path.join(path.dirname(dockerfileOf(app)), 'prisma', 'migrations'))) return;
        const copied = stages
          .at(-1)!
          .instructions.filter(([keyword]) => keyword === 'COPY')
          .map(([, argument]) => argument.split(/\s+/).at(-1));
        // dist/migrate.js (the kit's runner) finds them there (services/shared/service-kit/src/migrate.ts).
        for (const target of ['./dist', './prisma/migrations', './prisma/outbox/migrations'])
          assert.ok(copied.includes(target), `${app}: COPY … ${target}`);
      });

      test('when its base images are read, then they are named without a registry host', () => {
        for (const stage of dockerfileStages(dockerfileOf(app))) {
          const firstSegment = stage.image.split('/')[0] ?? '';
          const isStageReference = dockerfileStages(dockerfileOf(app)).some(
            (other) => other.name === stage.image,
          );
          if (isStageReference || !stage.image.includes('/')) continue;
          assert.doesNotMatch(firstSegment, /[.:]|^localhost$/, `${app}: FROM ${stage.image}`);
        }
      });

      test('when its image is built from the repository root, then a Dockerfile.dockerignore keeps host installs out', () => {
        const ignore = `${dockerfileOf(app)}.dockerignore`;
        assert.ok(existsSync(ignore), path.relative(repository, ignore));
        const patterns = readFileSync(ignore, 'utf8')
          .split(/\r?\n/)
          .map((line) => line.trim());
        assert.ok(
          patterns.includes('**/node_modules'),
          `${path.relative(repository, ignore)}: **/node_modules`,
        );
      });
    });
  }
});

describe('docker-compose.yml', () => {
  const compose = parse(readFileSync(path.join(repository, 'docker-compose.yml'), 'utf8'), {
    merge: true,
  }) as {
    services: Record<
      string,
      {
        build?: { target?: string };
        command?: string[];
        environment?: Record<string, string>;
        read_only?: boolean;
        cap_drop?: string[];
        depends_on?: Record<string, { condition: string }>;
      }
    >;
  };
  const nodeApps = Object.entries(compose.services).filter(
    ([name, service]) => service.build && !service.command && name !== 'web',
  );

  test("when a service's migrations run before it, then they run its own image (the same build) with the kit's runner, read-only and without capabilities, as its migration Job does", () => {
    const migrations = Object.entries(compose.services).filter(([name]) =>
      name.endsWith('-migrate'),
    );
    assert.deepEqual(
      migrations.map(([name]) => name.replace(/-migrate$/, '')).sort(),
      [
        'brand',
        'collaborations',
        'identity-profile',
        'media',
        'moderation',
        'notifications',
        'offers',
      ],
      'every service with a database, and only those, has its migration step',
    );
    for (const [name, migration] of migrations) {
      const app = name.replace(/-migrate$/, '');
      assert.deepEqual(migration.build, compose.services[app]?.build, `${name}: ${app}'s build`);
      assert.deepEqual(migration.command, ['node', 'dist/migrate.js'], name);
      assert.equal(migration.read_only, true, name);
      assert.deepEqual(migration.cap_drop, ['ALL'], name);
      assert.equal(
        compose.services[app]?.depends_on?.[name]?.condition,
        'service_completed_successfully',
        `${app} waits for ${name}`,
      );
    }
  });

  test('when an app container is read, then it sets HOST=0.0.0.0 so the other containers reach it', () => {
    assert.ok(nodeApps.length >= 4, nodeApps.map(([name]) => name).join(', '));
    for (const [name, service] of nodeApps) {
      assert.equal(service.environment?.HOST, '0.0.0.0', `${name}: HOST`);
    }
  });

  test('when the BFF is read, then it trusts exactly the one hop of `ingress` for client addresses', () => {
    assert.match(compose.services.bff?.environment?.TRUST_PROXY ?? '', /^[1-9]\d*$/);
  });
});

describe('web server configuration', () => {
  test("when nginx renders its CSP with or without a BFF origin and the console's Keycloak, then it is the policy of the Vite preview server, naming Keycloak only when the console has it", async () => {
    const { contentSecurityPolicy } = await import('../../web/vite.shared');
    const template = readFileSync(path.join(repository, 'web', 'nginx.conf'), 'utf8');
    const header = /add_header Content-Security-Policy "([^"]+)" always;/.exec(template)?.[1];
    assert.ok(header, 'web/nginx.conf sets Content-Security-Policy');
    // Directive by directive, sources split on blanks: an empty BFF_PUBLIC_URL leaves a blank.
    const directives = (policy: string) =>
      policy.split(';').map((directive) => directive.trim().split(/\s+/).join(' '));

    for (const bffUrl of ['', 'https://bff.example.com:8443']) {
      const rendered: string = header
        .replaceAll('${BFF_PUBLIC_URL}', bffUrl)
        .replaceAll('${CONSOLE_KEYCLOAK_URL}', '');
      assert.deepEqual(directives(rendered), directives(contentSecurityPolicy(bffUrl)), bffUrl);
      assert.doesNotMatch(rendered, /\$\{|keycloak|:8080/i, bffUrl);
    }
    const withConsole: string = header
      .replaceAll('${BFF_PUBLIC_URL}', '')
      .replaceAll('${CONSOLE_KEYCLOAK_URL}', 'https://auth.example.com');
    assert.deepEqual(
      directives(withConsole),
      directives(contentSecurityPolicy('', 'https://auth.example.com')),
    );
  });

  test("when the image renders /config.json from its default environment, then it holds bffUrl, backendEnvironment and the console's sign-in without Keycloak, the SPA's schema accepts it, and every variable of the template is one the image substitutes", async () => {
    const { checkRuntimeConfig } = await import('../../web/src/config/runtime-config-schema');
    const template = readFileSync(path.join(repository, 'web', 'nginx.conf'), 'utf8');
    const dockerfile = readFileSync(path.join(repository, 'web', 'Dockerfile'), 'utf8').replace(
      /\\\n/g,
      ' ',
    );
    const runtimeEnv = /^ENV BFF_PUBLIC_URL=.*$/m.exec(dockerfile)?.[0];
    assert.ok(runtimeEnv, 'web/Dockerfile sets the runtime environment in one ENV');
    const defaults = Object.fromEntries(
      [...runtimeEnv.matchAll(/([A-Z_]+)=("[^"]*"|\S*)/g)].map(([, name, value]) => [
        name!,
        value!.replace(/^"|"$/g, ''),
      ]),
    );
    const substituted = new RegExp(defaults.NGINX_ENVSUBST_FILTER!);
    const used = [...new Set([...template.matchAll(/\$\{([A-Z_]+)\}/g)].map((match) => match[1]!))];
    for (const name of used) {
      assert.match(name, substituted, `NGINX_ENVSUBST_FILTER substitutes \${${name}}`);
      assert.ok(name in defaults, `web/Dockerfile gives \${${name}} a default`);
    }

    const body = /location = \/config\.json \{[^}]*return 200 '([^']+)';/.exec(template)?.[1];
    assert.ok(body, 'web/nginx.conf answers /config.json');
    const rendered = body.replace(/\$\{([A-Z_]+)\}/g, (_match, name: string) => defaults[name]!);
    assert.deepEqual(JSON.parse(rendered), {
      bffUrl: '',
      backendEnvironment: 'production',
      consoleKeycloakUrl: '',
      consoleRealm: 'raly',
      consoleClientId: 'raly-console',
    });
    const checked = checkRuntimeConfig(JSON.parse(rendered));
    assert.ok(checked.ok, JSON.stringify(checked));
    // The product's sign-in goes through the BFF (docs/adr/0009): no product Keycloak settings.
    assert.doesNotMatch(
      `${runtimeEnv} ${body}`,
      /"keycloak(Url|Realm|ClientId)"|\bKEYCLOAK_/,
      'nothing of the product',
    );
  });

  test("when the web Deployment of each overlay is read, then it sets exactly the variables web/nginx.conf uses, Keycloak's only for the staff console", () => {
    const template = readFileSync(path.join(repository, 'web', 'nginx.conf'), 'utf8');
    const used = [...new Set([...template.matchAll(/\$\{([A-Z_]+)\}/g)].map((match) => match[1]!))];
    const webDeployments = appDeployments.filter((object) => object.metadata.name === 'web');
    assert.deepEqual(
      webDeployments.map((object) => object.overlay).sort(),
      [...overlayNames].sort(),
    );

    for (const deployment of webDeployments) {
      const [container] = containersOf(deployment);
      assert.equal(container?.envFrom, undefined, `${deployment.overlay}: no envFrom`);
      assert.deepEqual(
        (container?.env ?? []).map((variable) => variable.name).sort(),
        [...used].sort(),
        deployment.overlay,
      );
    }
  });
});
