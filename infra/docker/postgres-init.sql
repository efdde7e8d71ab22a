-- First start of the compose Postgres: one database per service, and Keycloak's.
create database raly_identity;
create database raly_brand;
create database raly_media;
create database raly_offers;
create database raly_collaborations;
create database raly_notifications;
create database raly_moderation;
create database raly_keycloak;
