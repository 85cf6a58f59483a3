import { Module } from '@nestjs/common';
import { DotsCluster } from './cluster.js';
import { DotsRepository } from './dots.repository.js';
import { DotsServer } from './dots-server.js';
import { DotsServerStore } from './server-store.js';

/** The live Dots server (docs/dots-server.md): TCP protocol, lobby, accounts, archiving of finished games. */
@Module({ providers: [DotsRepository, DotsCluster, DotsServerStore, DotsServer], exports: [DotsServer] })
export class DotsServerModule {}
