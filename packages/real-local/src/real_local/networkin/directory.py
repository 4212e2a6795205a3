"""NetworkIn's fixed catalogue (module data, never in a session's state): the members, the company pages, the
events, and the search over them. Member ids are the names lowercased without spaces (``oliviamartinez``), as
REAL's networkin scripts expect; the user is Div Garg (``divgarg``), a summer intern at AGI Inc.

No two member ids hold one another (networkin-5 finds a member's records by their id as a substring)."""

from __future__ import annotations

from dataclasses import dataclass

ME = "divgarg"


@dataclass(frozen=True)
class Member:
    id: str
    name: str
    headline: str
    company: str  # a company page's id, or "" (a school, a small firm)
    location: str
    industry: str
    degree: int  # 1, 2 or 3 in the seed: 1st-degree members are the user's connections
    about: str
    experience: tuple[tuple[str, str, str], ...]  # (title, organisation, period), newest first
    education: str
    skills: tuple[str, ...]
    connections: int  # shown on the profile ("500+" past 500)

    @property
    def first(self) -> str:
        return self.name.split()[0]

    @property
    def degree_label(self) -> str:
        return {1: "1st", 2: "2nd"}.get(self.degree, "3rd+")

    @property
    def connections_label(self) -> str:
        return "500+ connections" if self.connections > 500 else f"{self.connections} connections"


TECH = "Technology, Information and Internet"
SOFTWARE = "Software Development"

MEMBERS = (
    # ---- the user's connections (1st)
    Member("sarahjohnson", "Sarah Johnson", "Data Scientist at Netflix", "netflix", "Los Gatos, CA", "Entertainment",
           1, "Data scientist working on recommendation experiments and causal inference.",
           (("Data Scientist", "Netflix", "2021 - present"), ("Data Analyst", "Intuit", "2018 - 2021")),
           "UC Berkeley, M.S. Statistics", ("Python", "SQL", "Causal Inference", "A/B Testing"), 812),
    Member("emilydavis", "Emily Davis", "Product Manager at Spotify", "spotify", "New York, NY", TECH, 1,
           "Product manager for podcast discovery. Ex-consultant, forever a music nerd.",
           (("Product Manager", "Spotify", "2020 - present"), ("Associate", "McKinsey & Company", "2017 - 2020")),
           "Columbia University, MBA", ("Product Management", "Roadmapping", "User Research"), 640),
    Member("alexchen", "Alex Chen", "Technical Recruiter at Google", "google", "Mountain View, CA", TECH, 1,
           "I help engineers find their next role at Google. Always happy to chat about careers.",
           (("Technical Recruiter", "Google", "2019 - present"),), "San Jose State University, B.A. Psychology",
           ("Technical Recruiting", "Sourcing", "Interviewing"), 1430),
    Member("rachelkim", "Rachel Kim", "UX Designer at Figma", "figma", "San Francisco, CA", SOFTWARE, 1,
           "Designing collaboration features. Mentor at ADPList.",
           (("UX Designer", "Figma", "2022 - present"), ("Product Designer", "Asana", "2019 - 2022")),
           "Rhode Island School of Design, BFA", ("Figma", "Interaction Design", "Prototyping"), 388),
    Member("jameslee", "James Lee", "Software Engineer at Google", "google", "Mountain View, CA", TECH, 1,
           "Software engineer on Google Search infrastructure. I write about distributed systems and career growth.",
           (("Software Engineer", "Google", "2021 - present"), ("Software Engineer Intern", "Dropbox", "Summer 2020")),
           "Stanford University, B.S. Computer Science", ("Go", "C++", "Distributed Systems"), 534),
    Member("priyasharma", "Priya Sharma", "Senior Software Engineer at Microsoft", "microsoft", "Seattle, WA", SOFTWARE,
           1, "Senior software engineer on Azure Functions. Speaker, mentor, mom of two.",
           (("Senior Software Engineer", "Microsoft", "2019 - present"),
            ("Software Engineer", "Amazon", "2015 - 2019")),
           "University of Washington, B.S. Computer Science", ("C#", "Azure", "Serverless", "Mentoring"), 920),
    Member("davidnguyen", "David Nguyen", "Machine Learning Engineer at OpenAI", "openai", "San Francisco, CA", TECH, 1,
           "Training and evaluating large models. Organiser of the AI Builders meetup.",
           (("Machine Learning Engineer", "OpenAI", "2022 - present"), ("Research Engineer", "NVIDIA", "2019 - 2022")),
           "Carnegie Mellon University, M.S. Machine Learning", ("PyTorch", "Distributed Training", "LLMs"), 701),
    Member("laurawilson", "Laura Wilson", "Marketing Manager at HubSpot", "hubspot", "Boston, MA", SOFTWARE, 1,
           "B2B marketing, content strategy and a lot of webinars.",
           (("Marketing Manager", "HubSpot", "2020 - present"),), "Boston College, B.A. Communication",
           ("Content Marketing", "SEO", "Demand Generation"), 455),
    Member("kevinpatel", "Kevin Patel", "Founder & CEO at Loop Labs", "", "Austin, TX", SOFTWARE, 1,
           "Building Loop Labs: feedback tools for product teams. Previously PM at Atlassian.",
           (("Founder & CEO", "Loop Labs", "2023 - present"), ("Product Manager", "Atlassian", "2018 - 2023")),
           "University of Texas at Austin, B.B.A.", ("Entrepreneurship", "Product Strategy", "Fundraising"), 1220),
    Member("jessicawang", "Jessica Wang", "Investment Banking Analyst at Goldman Sachs", "goldmansachs",
           "New York, NY", "Financial Services", 1, "Analyst in the TMT group covering software and media deals.",
           (("Investment Banking Analyst", "Goldman Sachs", "2022 - present"),),
           "New York University, B.S. Finance", ("Financial Modeling", "Valuation", "Excel"), 503),
    # ---- not connected (2nd and 3rd+)
    Member("oliviamartinez", "Olivia Martinez", "Product Designer at Airbnb", "airbnb", "San Francisco, CA", TECH, 2,
           "Product designer on Airbnb Experiences. I love design systems, ceramics and long hikes.",
           (("Product Designer", "Airbnb", "2021 - present"), ("Visual Designer", "Pinterest", "2018 - 2021")),
           "Stanford University, B.S. Symbolic Systems", ("Design Systems", "Figma", "User Research"), 687),
    Member("oliviamartins", "Olivia Martins", "Registered Nurse at NYU Langone Health", "", "New York, NY",
           "Hospitals and Health Care", 3, "ICU nurse. Patient advocate.",
           (("Registered Nurse", "NYU Langone Health", "2019 - present"),), "Hunter College, B.S. Nursing",
           ("Critical Care", "Patient Safety"), 214),
    Member("michaelbrown", "Michael Brown", "Software Engineer at Datadog", "datadog", "New York, NY", SOFTWARE, 2,
           "Software engineer building Datadog's metrics pipeline. NYC tech meetup regular.",
           (("Software Engineer", "Datadog", "2020 - present"), ("Software Engineer", "Bloomberg", "2017 - 2020")),
           "Cornell University, B.S. Computer Science", ("Java", "Kafka", "Observability"), 602),
    Member("danielgarcia", "Daniel Garcia", "Full Stack Developer at Etsy", "etsy", "Brooklyn, New York", TECH, 2,
           "Full stack developer on Etsy's checkout. React, PHP and too much coffee.",
           (("Full Stack Developer", "Etsy", "2021 - present"),), "Brooklyn College, B.S. Computer Science",
           ("React", "PHP", "MySQL"), 377),
    Member("sophiataylor", "Sophia Taylor", "Data Engineer at MongoDB", "mongodb", "New York, NY", SOFTWARE, 2,
           "Data engineer: pipelines, warehouses and dashboards that people actually use.",
           (("Data Engineer", "MongoDB", "2021 - present"), ("Analytics Engineer", "Squarespace", "2019 - 2021")),
           "Columbia University, B.S. Applied Mathematics", ("Spark", "Airflow", "dbt"), 429),
    Member("ryanmiller", "Ryan Miller", "Software Engineer at Stripe", "stripe", "San Francisco, CA", TECH, 2,
           "Software engineer on Stripe's payments API. Happy to give advice to students breaking into tech.",
           (("Software Engineer", "Stripe", "2020 - present"), ("Software Engineer Intern", "Square", "Summer 2019")),
           "UC Los Angeles, B.S. Computer Science", ("Ruby", "Java", "API Design"), 566),
    Member("chrisanderson", "Chris Anderson", "Senior Software Engineer at Amazon", "amazon", "Seattle, WA", SOFTWARE,
           3, "Senior software engineer on Amazon's fulfillment systems.",
           (("Senior Software Engineer", "Amazon", "2016 - present"),), "Purdue University, B.S. Computer Engineering",
           ("Java", "AWS", "System Design"), 845),
    Member("natalieroberts", "Natalie Roberts", "Data Scientist at Meta", "meta", "Menlo Park, CA", TECH, 2,
           "Data scientist on Instagram growth: experiments, metrics and forecasting.",
           (("Data Scientist", "Meta", "2020 - present"),), "University of Michigan, M.S. Statistics",
           ("R", "Python", "Experimentation"), 512),
    Member("hannahlopez", "Hannah Lopez", "Research Scientist at NVIDIA", "nvidia", "Santa Clara, CA", "Computer Hardware",
           2, "Research scientist in computer vision and robotics simulation.",
           (("Research Scientist", "NVIDIA", "2021 - present"),), "Georgia Tech, Ph.D. Robotics",
           ("Computer Vision", "Robotics", "CUDA"), 390),
    Member("brandonyoung", "Brandon Young", "Engineering Manager at Microsoft", "microsoft", "Redmond, WA", SOFTWARE, 2,
           "Engineering manager for Microsoft Teams calling. Hiring great engineers.",
           (("Engineering Manager", "Microsoft", "2018 - present"), ("Software Engineer", "Microsoft", "2012 - 2018")),
           "University of Illinois, B.S. Computer Science", ("Leadership", "C++", "Hiring"), 1105),
    Member("jasonwright", "Jason Wright", "Account Executive at Salesforce", "salesforce", "Chicago, IL", SOFTWARE, 3,
           "Helping retailers get the most out of Salesforce.",
           (("Account Executive", "Salesforce", "2019 - present"),), "University of Iowa, B.A. Economics",
           ("Enterprise Sales", "Negotiation"), 733),
    Member("meganclark", "Megan Clark", "Associate Attorney at Clark & Hale LLP", "", "New York, NY", "Law Practice", 3,
           "Corporate attorney advising on mergers and acquisitions.",
           (("Associate Attorney", "Clark & Hale LLP", "2020 - present"),), "Fordham University, J.D.",
           ("Corporate Law", "M&A"), 298),
    Member("andrewthomas", "Andrew Thomas", "High School Teacher at Lincoln High School", "", "Portland, OR",
           "Education", 3, "I teach physics and coach the robotics team.",
           (("Physics Teacher", "Lincoln High School", "2014 - present"),), "Portland State University, M.Ed.",
           ("Teaching", "Physics", "Robotics"), 156),
    Member("tylerscott", "Tyler Scott", "Computer Science Student at UC Berkeley", "", "Berkeley, CA", "Higher Education",
           3, "Junior studying CS. Looking for software engineering internships for summer 2025.",
           (("Teaching Assistant", "UC Berkeley", "2023 - present"),), "UC Berkeley, B.A. Computer Science",
           ("Python", "Java", "Algorithms"), 143),
    Member("graceturner", "Grace Turner", "Talent Acquisition Lead at AGI Inc", "agiinc", "San Francisco, CA", TECH, 2,
           "I run intern and new grad hiring at AGI Inc.",
           (("Talent Acquisition Lead", "AGI Inc", "2023 - present"), ("Recruiter", "Lyft", "2019 - 2023")),
           "UC Davis, B.A. Sociology", ("Recruiting", "Employer Branding"), 1650),
)
BY_ID = {m.id: m for m in MEMBERS}

USER = Member(ME, "Div Garg", "Summer Intern at AGI Inc | Computer Science at Stanford", "agiinc",
              "San Francisco Bay Area", TECH, 0,
              "CS student interested in AI agents. This summer I'm interning at AGI Inc.",
              (("Summer Intern", "AGI Inc", "Jun 2024 - Aug 2024"), ("Research Assistant", "Stanford AI Lab",
                                                                     "2023 - 2024")),
              "Stanford University, B.S. Computer Science", ("Python", "Machine Learning", "React"), 487)


@dataclass(frozen=True)
class Company:
    id: str
    name: str
    industry: str
    headquarters: str
    followers: int
    tagline: str
    about: str
    size: str

    @property
    def followers_label(self) -> str:
        n = self.followers
        return f"{n / 1_000_000:.1f}M followers" if n >= 1_000_000 else f"{n // 1000:,}K followers"


COMPANIES = (
    Company("microsoft", "Microsoft", SOFTWARE, "Redmond, Washington", 23_400_000,
            "Empowering every person and every organization on the planet to achieve more.",
            "Microsoft builds software, services, devices and cloud solutions.", "10,001+ employees"),
    Company("google", "Google", TECH, "Mountain View, California", 32_100_000,
            "Organizing the world's information.", "Search, Android, Cloud and much more.", "10,001+ employees"),
    Company("amazon", "Amazon", "Software Development", "Seattle, Washington", 31_200_000,
            "Earth's most customer-centric company.", "Online retail, AWS, devices and entertainment.",
            "10,001+ employees"),
    Company("apple", "Apple", "Computers and Electronics Manufacturing", "Cupertino, California", 17_300_000,
            "Think different.", "iPhone, Mac, iPad, Apple Watch and services.", "10,001+ employees"),
    Company("meta", "Meta", TECH, "Menlo Park, California", 10_600_000, "Bringing the world closer together.",
            "Facebook, Instagram, WhatsApp and Reality Labs.", "10,001+ employees"),
    Company("netflix", "Netflix", "Entertainment Providers", "Los Gatos, California", 10_200_000,
            "Entertaining the world.", "Streaming series, films and games in 190 countries.", "10,001+ employees"),
    Company("openai", "OpenAI", "Research Services", "San Francisco, California", 6_700_000,
            "Ensuring artificial general intelligence benefits all of humanity.", "AI research and deployment.",
            "1,001-5,000 employees"),
    Company("nvidia", "NVIDIA", "Computer Hardware Manufacturing", "Santa Clara, California", 4_900_000,
            "The engine of AI.", "GPUs, accelerated computing and AI platforms.", "10,001+ employees"),
    Company("salesforce", "Salesforce", SOFTWARE, "San Francisco, California", 4_800_000,
            "The #1 AI CRM.", "Customer relationship management software.", "10,001+ employees"),
    Company("goldmansachs", "Goldman Sachs", "Financial Services", "New York, New York", 4_300_000,
            "Progress is everyone's business.", "Investment banking, securities and asset management.",
            "10,001+ employees"),
    Company("airbnb", "Airbnb", TECH, "San Francisco, California", 3_900_000, "Belong anywhere.",
            "Stays and experiences hosted by people around the world.", "5,001-10,000 employees"),
    Company("spotify", "Spotify", "Musicians", "New York, New York", 3_300_000, "Listening is everything.",
            "Music and podcast streaming.", "5,001-10,000 employees"),
    Company("stripe", "Stripe", "Financial Services", "San Francisco, California", 1_300_000,
            "Financial infrastructure for the internet.", "Payments APIs for businesses of every size.",
            "5,001-10,000 employees"),
    Company("hubspot", "HubSpot", SOFTWARE, "Cambridge, Massachusetts", 1_100_000,
            "Grow better.", "A customer platform for scaling companies.", "5,001-10,000 employees"),
    Company("figma", "Figma", SOFTWARE, "San Francisco, California", 820_000, "Design together.",
            "Collaborative interface design.", "1,001-5,000 employees"),
    Company("datadog", "Datadog", SOFTWARE, "New York, New York", 610_000, "Observability for the cloud age.",
            "Monitoring and security for cloud applications.", "5,001-10,000 employees"),
    Company("mongodb", "MongoDB", SOFTWARE, "New York, New York", 540_000, "Built by developers, for developers.",
            "The developer data platform.", "1,001-5,000 employees"),
    Company("etsy", "Etsy", TECH, "Brooklyn, New York", 480_000, "Keep commerce human.",
            "A marketplace for unique and creative goods.", "1,001-5,000 employees"),
    Company("agiinc", "AGI Inc", "Research Services", "San Francisco, California", 18_000,
            "Building agents that use computers like people do.", "An applied AI lab building browser agents and the "
            "REAL benchmark.", "11-50 employees"),
)
COMPANY_BY_ID = {c.id: c for c in COMPANIES}
FOLLOWED_AT_START = ("agiinc",)  # the user's employer; every other page starts unfollowed


@dataclass(frozen=True)
class Event:
    id: str
    title: str
    organizer: str  # a company page's id or a member's id
    date: str  # YYYY-MM-DD
    time: str
    where: str  # "Online" or a city
    about: str
    attendees: int  # before the user

    @property
    def organizer_name(self) -> str:
        c = COMPANY_BY_ID.get(self.organizer)
        return c.name if c else BY_ID[self.organizer].name


EVENTS = (
    Event("ai-builders-meetup", "AI Builders Meetup: Agents in Production", "davidnguyen", "2024-08-22", "6:00 PM PDT",
          "San Francisco, CA", "Talks and demos from engineers shipping AI agents, then pizza and networking.", 186),
    Event("nyc-tech-networking-night", "NYC Tech Networking Night", "datadog", "2024-08-28", "6:30 PM EDT",
          "New York, NY", "Meet engineers, designers and founders from New York's tech scene.", 342),
    Event("women-in-tech-summit", "Women in Tech Summit 2024", "microsoft", "2024-09-12", "9:00 AM PDT", "Online",
          "A day of talks, workshops and mentoring circles for women in technology.", 1250),
    Event("intern-demo-day", "AGI Inc Summer Intern Demo Day", "agiinc", "2024-08-20", "3:00 PM PDT",
          "San Francisco, CA", "Our summer interns demo what they built. Open to everyone.", 74),
    Event("design-portfolio-review", "Product Design Portfolio Review", "figma", "2024-09-05", "5:00 PM PDT", "Online",
          "Get feedback on your design portfolio from Figma designers.", 410),
    Event("python-data-workshop", "Hands-on Python for Data Science Workshop", "mongodb", "2024-09-18", "1:00 PM EDT",
          "Online", "A three-hour workshop: pandas, notebooks and your first model.", 623),
)
EVENT_BY_ID = {e.id: e for e in EVENTS}


def _words(q: str) -> list[str]:
    return q.lower().replace(",", " ").split()


def _matches(words: list[str], *fields: str) -> bool:
    hay = " ".join(fields).lower()
    if "new york" in hay:
        hay += " nyc"
    return all(w in hay for w in words)


def search_people(q: str = "", degree: str = "", location: str = "",
                  grades: dict[str, int] | None = None) -> list[Member]:
    """Members whose name, headline, company, location, industry, skills or about hold every word of ``q`` (any
    case; "nyc" finds New York), those whose name or headline holds them all first; ``degree`` "1"/"2"/"3" keeps
    1st/2nd/3rd+ by the session's ``grades``; ``location`` keeps members whose location holds it."""
    words = _words(q)
    out: list[Member] = []
    for m in MEMBERS:
        g = (grades or {}).get(m.id, m.degree)
        if degree and str(min(g, 3)) != degree:
            continue
        if location and location.lower() not in m.location.lower():
            continue
        company = COMPANY_BY_ID[m.company].name if m.company else ""
        if _matches(words, m.name, m.headline, company, m.location, m.industry, " ".join(m.skills), m.about):
            out.append(m)
    return sorted(out, key=lambda m: not _matches(words, m.name, m.headline))


def search_companies(q: str = "") -> list[Company]:
    words = _words(q)
    return [c for c in COMPANIES if _matches(words, c.name, c.industry, c.headquarters, c.tagline, c.about)]


def search_events(q: str = "") -> list[Event]:
    words = _words(q)
    return [e for e in EVENTS if _matches(words, e.title, e.organizer_name, e.where, e.about)]


LOCATIONS = ("New York", "San Francisco", "Seattle", "Mountain View", "Boston", "Austin", "Chicago")
