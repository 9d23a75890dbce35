/**
 * Vocabulary for the generated answers: combined at random, enough variety that long answers do not repeat
 * one line, and text that reads like what a model writes (names, companies, achievements, article sentences).
 */
export const firstNames = [
  "Jane",
  "Alex",
  "Priya",
  "Minjun",
  "Lucía",
  "Tomasz",
  "Amara",
  "Kenji",
  "Sofia",
  "Omar",
  "Hannah",
  "Mateo",
  "Chloé",
  "Dmitri",
  "Aisha",
  "Lars",
  "Mei",
  "Rafael",
  "Zanele",
  "Noah",
] as const;

export const lastNames = [
  "Doe",
  "Mercer",
  "Raman",
  "Kim",
  "Fernández",
  "Nowak",
  "Okafor",
  "Watanabe",
  "Rossi",
  "Haddad",
  "Schmidt",
  "García",
  "Dubois",
  "Volkov",
  "Bello",
  "Johansson",
  "Chen",
  "Costa",
  "Dlamini",
  "Levi",
] as const;

export const companies = [
  "Streamline",
  "Northwind Labs",
  "Acme Robotics",
  "Bluefin Analytics",
  "Copperleaf",
  "Helios Energy",
  "Quanta Health",
  "Riverbank Financial",
  "Atlas Logistics",
  "Nimbus Cloud",
  "Orchid Media",
  "Pinecone Games",
  "Summit Retail",
  "Tidal Systems",
  "Vertex Biotech",
  "Wren Security",
] as const;

export const roles = [
  "Staff Engineer",
  "Senior Software Engineer",
  "Engineering Manager",
  "Platform Engineer",
  "Data Engineer",
  "Site Reliability Engineer",
  "Backend Developer",
  "Tech Lead",
  "Principal Engineer",
  "Software Architect",
] as const;

export const skills = [
  "Rust",
  "Go",
  "Python",
  "TypeScript",
  "Kubernetes",
  "Distributed Systems",
  "PostgreSQL",
  "Kafka",
  "AWS",
  "Terraform",
  "gRPC",
  "React",
  "Machine Learning",
  "Observability",
  "CI/CD",
  "Java",
  "Redis",
  "GraphQL",
] as const;

export const achievementVerbs = [
  "Led",
  "Designed",
  "Shipped",
  "Rebuilt",
  "Automated",
  "Migrated",
  "Scaled",
  "Introduced",
  "Cut the cost of",
  "Mentored the team behind",
] as const;

export const achievementObjects = [
  "the Kubernetes migration",
  "the billing pipeline",
  "a multi-region failover",
  "the search service",
  "an event-sourcing platform",
  "the on-call process",
  "a feature-flag system",
  "the data warehouse",
  "the mobile release train",
  "a zero-downtime deploy system",
  "the fraud-detection model",
  "the public API gateway",
] as const;

export const achievementOutcomes = [
  "cutting p99 latency by {n}%",
  "saving {n}k dollars a year",
  "for {n} million users",
  "with a team of {n}",
  "reducing incidents by {n}%",
  "in {n} weeks",
  "raising test coverage to {n}%",
] as const;

export const reasoningSentences = [
  "Strong systems background with clear ownership of large migrations.",
  "The candidate's experience maps well onto our platform roadmap.",
  "There is a two-year gap, explained by a sabbatical.",
  "Communication in the written exercise was clear and structured.",
  "Depth in distributed systems is above the bar for this level.",
  "Limited exposure to frontend work, which this role does not need.",
  "References describe a calm and reliable incident lead.",
  "Salary expectations are within the approved band.",
] as const;

export const merchants = [
  "Blue Bottle Café",
  "Corner Hardware",
  "Green Grocer",
  "City Books",
  "Harbor Pharmacy",
  "Luna Ramen",
  "Office Depot",
  "Trattoria Roma",
] as const;

export const products = [
  "Oat milk latte",
  "Croissant",
  "Screws M4 (box)",
  "Paint roller",
  "Organic apples",
  "Sourdough loaf",
  "Paperback novel",
  "Notebook A5",
  "Ibuprofen 200mg",
  "Tonkotsu ramen",
  "Gyoza (6 pcs)",
  "Printer paper",
  "USB-C cable",
  "Margherita pizza",
  "Sparkling water",
  "Espresso beans 1kg",
  "Desk lamp",
  "Masking tape",
] as const;

export const locations = [
  "Berlin",
  "Lagos",
  "São Paulo",
  "Seoul",
  "Toronto",
  "Nairobi",
  "Lyon",
  "Osaka",
  "Melbourne",
  "Reykjavík",
] as const;

export const events = [
  "the Winter Summit",
  "the product launch",
  "the annual shareholder meeting",
  "the Open Data Conference",
  "the city marathon",
  "the climate forum",
] as const;

export const headingTopics = [
  "Background",
  "Motivation",
  "Related Work",
  "Architecture",
  "Data Model",
  "Failure Handling",
  "Evaluation",
  "Security",
  "Deployment",
  "Costs",
  "Open Questions",
  "Timeline",
  "Risks",
  "Alternatives Considered",
  "Migration Plan",
  "Monitoring",
] as const;

export const summaryFragments = [
  "explains why the current design no longer scales",
  "compares three storage engines on write amplification",
  "describes how retries interact with idempotency keys",
  "lists the metrics that gate each rollout stage",
  "argues for a single writer per partition",
  "summarises the load-test results at twice peak traffic",
  "records the trade-offs the team accepted",
  "walks through a failover drill step by step",
] as const;

export const ticketTexts = [
  "I was charged twice for my March invoice",
  "The export button crashes the app on Android",
  "I can't log in after resetting my password",
  "Please add dark mode to the dashboard",
  "My parcel has been stuck in customs for a week",
  "Do you have a student discount?",
] as const;
