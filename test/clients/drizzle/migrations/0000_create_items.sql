CREATE EXTENSION IF NOT EXISTS ulid;
--> statement-breakpoint
CREATE TABLE "items" (
	"id" ulid PRIMARY KEY DEFAULT ulid_generate() NOT NULL,
	"name" text NOT NULL,
	"flake" ulid_flake
);
